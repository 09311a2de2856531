import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { OrganisationRepositories } from './organisation-repositories.js';
import { userOverridesRoutes } from './user-overrides.routes.js';
import { createUserOverridesService } from './user-overrides.service.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

/** Users and their per-user permission and department overrides (the repositories are shared). */
export function createUsersModule(deps: OrganisationRepositories & { db: Database; bus: Bus }) {
  const service = createUsersService(deps);
  const overrides = createUserOverridesService(deps);
  return defineModule({
    service,
    overrides,
    routes: async (api) => {
      await api.register(usersRoutes, { users: service });
      await api.register(userOverridesRoutes, { overrides });
    },
  });
}

export type UsersModule = ReturnType<typeof createUsersModule>;
