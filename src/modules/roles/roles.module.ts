import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { OrganisationRepositories } from '../users/organisation-repositories.js';
import { rolesRoutes } from './roles.routes.js';
import { createRolesService } from './roles.service.js';

/** Roles: the repository is shared (OrganisationRepositories); this adds the service and routes. */
export function createRolesModule(deps: OrganisationRepositories & { db: Database; bus: Bus }) {
  const service = createRolesService(deps);
  return defineModule({ service, routes: (api) => api.register(rolesRoutes, { roles: service }) });
}
