import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import { createAnalyticsRepository } from './analytics.repository.js';
import { analyticsRoutes } from './analytics.routes.js';
import { createAnalyticsService } from './analytics.service.js';
import { createIntentAnalyticsRepository } from './intent-analytics.repository.js';
import { createIntentAnalyticsService, type TrustEvidenceSource } from './intent-analytics.service.js';

/** The analytics dashboard and the autonomy analytics: SQL aggregates over tasks, approvals and messages. */
export function createAnalyticsModule(deps: { db: Database; trust: TrustEvidenceSource }) {
  const analytics = createAnalyticsRepository(deps.db);
  const intentAnalytics = createIntentAnalyticsRepository(deps.db);
  const service = createAnalyticsService({ analytics });
  const intents = createIntentAnalyticsService({ intentAnalytics, trust: deps.trust });
  return defineModule({
    service,
    intents,
    repositories: { analytics, intentAnalytics },
    routes: (api) => api.register(analyticsRoutes, { analytics: service, intentAnalytics: intents }),
  });
}
