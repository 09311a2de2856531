import type { Database } from './core/db/client.js';
import { createDepartmentsRepository } from './modules/departments/departments.repository.js';
import { createRolesRepository } from './modules/roles/roles.repository.js';
import type { OrganisationRepositories } from './modules/users/organisation-repositories.js';
import { createUsersRepository } from './modules/users/users.repository.js';

/** The repositories of users, roles and departments, built once for the container (and the CLI). */
export const createOrganisationRepositories = (db: Database): OrganisationRepositories => ({
  users: createUsersRepository(db),
  roles: createRolesRepository(db),
  departments: createDepartmentsRepository(db),
});
