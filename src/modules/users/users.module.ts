import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import { createDepartmentsRepository } from '../departments/departments.repository.js';
import { createRolesRepository } from '../roles/roles.repository.js';
import { createUserOverridesService } from './user-overrides.service.js';
import { createUsersRepository } from './users.repository.js';
import { createUsersService } from './users.service.js';

/** The repositories of users, roles and departments, which most modules read; then the users module. */
export const createOrganisationRepositories = (db: Database) => ({
  users: createUsersRepository(db),
  roles: createRolesRepository(db),
  departments: createDepartmentsRepository(db),
});
export type OrganisationRepositories = ReturnType<typeof createOrganisationRepositories>;

export const createUsersModule = (deps: OrganisationRepositories & { db: Database; bus: Bus }) => ({
  service: createUsersService(deps),
  overrides: createUserOverridesService(deps),
});
