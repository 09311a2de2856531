import { defineModule } from '../../core/module.js';
import { createFeedbackRepository } from './feedback.repository.js';
import { feedbackRoutes } from './feedback.routes.js';
import { createFeedbackService, type FeedbackServiceDeps } from './feedback.service.js';

/** Employees' ratings of assistant replies (web route here; channel A and B call the service). */
export function createFeedbackModule(deps: Omit<FeedbackServiceDeps, 'feedback'>) {
  const feedback = createFeedbackRepository(deps.db);
  const service = createFeedbackService({ ...deps, feedback });
  return defineModule({
    service,
    repositories: { feedback },
    routes: (api) => api.register(feedbackRoutes, { feedback: service }),
  });
}

export type FeedbackModule = ReturnType<typeof createFeedbackModule>;
