import { defineModule } from '../../core/module.js';
import { setupRoutes } from './setup.routes.js';
import { createSetupService, type SetupServiceDeps } from './setup.service.js';

/** The one-time setup page's API: the first administrator, guarded by the code printed at start. */
export function createSetupModule(deps: SetupServiceDeps & { rateLimitPerMin: number }) {
  const service = createSetupService(deps);
  return defineModule({
    service,
    routes: (api) => api.register(setupRoutes, { setup: service, rateLimitPerMin: deps.rateLimitPerMin }),
  });
}
