import type { Database } from '../../core/db/client.js';
import { createDepartmentsRepository } from '../departments/departments.repository.js';
import { createRolesRepository } from '../roles/roles.repository.js';
import { createUsersRepository } from './users.repository.js';

/** The repositories of users, roles and departments, which most modules read. */
export function createOrganisationRepositories(db: Database) {
  return {
    users: createUsersRepository(db),
    roles: createRolesRepository(db),
    departments: createDepartmentsRepository(db),
  };
}

export type OrganisationRepositories = ReturnType<typeof createOrganisationRepositories>;
