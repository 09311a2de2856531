import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import { createEmployeeProfilesRepository } from './employee-profiles.repository.js';
import { employeeProfilesRoutes } from './employee-profiles.routes.js';
import { createEmployeeProfilesService } from './employee-profiles.service.js';
import { createProfileMemoryService } from './memory.service.js';

/** Employee profiles (one per user, created with the user) and the memory the pipeline extracts into them. */
export function createEmployeeProfilesModule(deps: { db: Database }) {
  const profiles = createEmployeeProfilesRepository(deps.db);
  const accessStamps = accessStampsOf(deps.db);
  const service = createEmployeeProfilesService({ profiles, accessStamps });
  return defineModule({
    service,
    memory: createProfileMemoryService({ ...deps, accessStamps }),
    repositories: { profiles },
    routes: (api) => api.register(employeeProfilesRoutes, { profiles: service }),
  });
}
