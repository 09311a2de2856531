import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import type { OrganisationRepositories } from './organisation-repositories.js';
import { createUserOverridesService } from './user-overrides.service.js';
import { createUsersService } from './users.service.js';

export const createUsersModule = (deps: OrganisationRepositories & { db: Database; bus: Bus }) => ({
  service: createUsersService(deps),
  overrides: createUserOverridesService(deps),
});
