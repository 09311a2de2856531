import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import { Dashboard, DashboardQuery } from './analytics.schemas.js';
import type { AnalyticsService } from './analytics.service.js';

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ analytics: AnalyticsService }> = async (
  app,
  { analytics },
) => {
  app.get('/analytics/dashboard', {
    schema: {
      tags: ['analytics'],
      operationId: 'getAnalyticsDashboard',
      querystring: DashboardQuery,
      response: { 200: Dashboard, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => analytics.dashboard(requireActor(request), request.query),
  });
};
