import type { FastifyInstance } from 'fastify';
import { defineModule } from '../../core/module.js';
import { healthRoutes } from './health.routes.js';
import { createHealthService, type HealthDeps } from './health.service.js';
import { probeRoutes } from './probes.routes.js';

/** The health check: the documented operation under the API prefix, and a hidden copy at the root. */
export function createHealthModule(deps: HealthDeps) {
  const service = createHealthService(deps);
  return defineModule({
    service,
    routes: (api) => api.register(healthRoutes, { health: service, path: '/health' }),
    // Load balancers probe /health at the root; orchestrators /health/live and /health/ready.
    rootRoutes: async (app) => {
      await app.register(healthRoutes, { health: service, path: '/health', hidden: true });
      await app.register(probeRoutes, { health: service });
    },
    /** The probes alone, for the worker processes' metrics port (workers/probe-server.ts). */
    probeRoutes: (app: FastifyInstance) => app.register(probeRoutes, { health: service }),
  });
}
