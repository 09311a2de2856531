import { defineModule } from '../../core/module.js';
import { healthRoutes } from './health.routes.js';
import { createHealthService, type HealthDeps } from './health.service.js';

/** The health check: the documented operation under the API prefix, and a hidden copy at the root. */
export function createHealthModule(deps: HealthDeps) {
  const service = createHealthService(deps);
  return defineModule({
    service,
    routes: (api) => api.register(healthRoutes, { health: service, path: '/health' }),
    // Load balancers probe /health at the root.
    rootRoutes: (app) => app.register(healthRoutes, { health: service, path: '/health', hidden: true }),
  });
}
