import type { DepartmentsRepository } from '../departments/departments.repository.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { UsersRepository } from './users.repository.js';

/**
 * The repositories of users, roles and departments, which most areas read:
 * built once by the container (src/organisation-repositories.ts) and handed
 * to each module, so no module imports another module's repository.
 */
export interface OrganisationRepositories {
  users: UsersRepository;
  roles: RolesRepository;
  departments: DepartmentsRepository;
}
