import { createHash, timingSafeEqual } from 'node:crypto';
import { NotFoundError, UnauthorizedError } from '../../core/errors/app-errors.js';
import type { Metrics } from '../../core/metrics/metrics.js';

export interface MetricsServiceDeps {
  metrics: Pick<Metrics, 'registry'>;
  /** METRICS_TOKEN: scrapes must send it as a bearer token; null leaves /metrics open outside production. */
  token: string | null;
  /** NODE_ENV is production: without a token /metrics is not served at all. */
  production: boolean;
}

/** SHA-256 of both sides first, so the comparison takes the same time whatever the lengths. */
function tokensEqual(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function createMetricsService(deps: MetricsServiceDeps) {
  const { registry } = deps.metrics;
  return {
    /** Whether /metrics answers at all: not in production without METRICS_TOKEN. */
    served: deps.token !== null || !deps.production,

    /**
     * The registry in the Prometheus text format, after the scrape-time
     * gauges have read the queue and the database (each bounded in time).
     * @throws NotFoundError in production when METRICS_TOKEN is not set.
     * @throws UnauthorizedError when METRICS_TOKEN is set and `authorization`
     *   is not `Bearer <METRICS_TOKEN>`.
     */
    async scrape(authorization: string | undefined): Promise<{ contentType: string; text: string }> {
      if (deps.token === null) {
        if (deps.production) throw new NotFoundError('Route GET /metrics not found');
      } else {
        const given = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : null;
        if (given === null || !tokensEqual(given, deps.token)) {
          throw new UnauthorizedError('The metrics need Authorization: Bearer <METRICS_TOKEN>');
        }
      }
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
