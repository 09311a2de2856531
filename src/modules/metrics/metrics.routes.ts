import type { FastifyPluginAsync } from 'fastify';
import type { MetricsService } from './metrics.service.js';

/**
 * `GET /metrics` for Prometheus. Hidden from the API docs: it is for the
 * monitoring system, not API clients (docs/operations.md describes it). The
 * route checks METRICS_TOKEN itself, so its auth config is `none`.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: MetricsService }> = async (app, { metrics }) => {
  app.get('/metrics', {
    schema: { tags: ['system'], hide: true },
    config: { auth: 'none' },
    handler: async (request, reply) => {
      const { contentType, text } = await metrics.scrape(request.headers.authorization);
      return reply.type(contentType).send(text);
    },
  });
};
