import { defineModule } from '../../core/module.js';
import { permissionsRoutes } from './permissions.routes.js';
import { createPermissionsService } from './permissions.service.js';

/** The permission catalogue (static). */
export function createPermissionsModule() {
  const service = createPermissionsService();
  return defineModule({
    service,
    routes: (api) => api.register(permissionsRoutes, { permissions: service }),
  });
}
