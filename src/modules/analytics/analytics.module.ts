import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import { createAnalyticsRepository } from './analytics.repository.js';
import { analyticsRoutes } from './analytics.routes.js';
import { createAnalyticsService } from './analytics.service.js';

/** The analytics dashboard: SQL aggregates over tasks, approvals and messages. */
export function createAnalyticsModule(deps: { db: Database }) {
  const analytics = createAnalyticsRepository(deps.db);
  const service = createAnalyticsService({ analytics });
  return defineModule({
    service,
    repositories: { analytics },
    routes: (api) => api.register(analyticsRoutes, { analytics: service }),
  });
}
