import type { Database } from './core/db/client.js';
import { createDepartmentsRepository } from './modules/departments/departments.repository.js';
import { createRolesRepository } from './modules/roles/roles.repository.js';
import { createUsersRepository } from './modules/users/users.repository.js';

/**
 * The repositories of users, roles and departments, which most areas read.
 * Built once by the container and handed to each module, so no module
 * imports another module's repository.
 */
export const createOrganisationRepositories = (db: Database) => ({
  users: createUsersRepository(db),
  roles: createRolesRepository(db),
  departments: createDepartmentsRepository(db),
});
export type OrganisationRepositories = ReturnType<typeof createOrganisationRepositories>;
