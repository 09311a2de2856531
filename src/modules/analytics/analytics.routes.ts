import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import { Dashboard, DashboardQuery } from './analytics.schemas.js';
import type { AnalyticsService } from './analytics.service.js';
import { IntentAnalytics, IntentAnalyticsQuery } from './intent-analytics.schemas.js';
import type { IntentAnalyticsService } from './intent-analytics.service.js';

export const analyticsRoutes: FastifyPluginAsyncTypebox<{
  analytics: AnalyticsService;
  intentAnalytics: IntentAnalyticsService;
}> = async (app, { analytics, intentAnalytics }) => {
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

  // The same access as the dashboard (any user, scoped to their departments): a namespace
  // outside them reads as not found.
  app.get('/analytics/intents', {
    schema: {
      tags: ['analytics'],
      operationId: 'getIntentAnalytics',
      querystring: IntentAnalyticsQuery,
      response: { 200: IntentAnalytics, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => intentAnalytics.intents(requireActor(request), request.query),
  });
};
