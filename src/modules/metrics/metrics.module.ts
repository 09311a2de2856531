import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../core/db/client.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import { addApprovalsWaiting } from '../../core/metrics/scrape-gauges.js';
import { defineModule } from '../../core/module.js';
import { createMetricsRepository } from './metrics.repository.js';
import { metricsRoutes } from './metrics.routes.js';
import { createMetricsService } from './metrics.service.js';

/** `GET /metrics` at the root (beside /health), with the approvals-waiting gauge read at scrape time. */
export function createMetricsModule(deps: {
  db: Database;
  metrics: Metrics;
  token: string | null;
  production: boolean;
  logger: FastifyBaseLogger;
}) {
  const repository = createMetricsRepository(deps.db);
  addApprovalsWaiting(deps.metrics, () => repository.approvalsWaitingByNamespace());
  const service = createMetricsService(deps);
  if (!service.served) {
    deps.logger.info(
      'metrics: GET /metrics answers 404 in production until METRICS_TOKEN is set; set it and scrape with Authorization: Bearer <METRICS_TOKEN>',
    );
  }
  return defineModule({
    service,
    rootRoutes: (app) => app.register(metricsRoutes, { metrics: service }),
  });
}
