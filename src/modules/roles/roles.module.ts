import type { Database } from '../../core/db/client.js';
import type { OrganisationRepositories } from '../users/users.module.js';
import { createRolesService } from './roles.service.js';

/** Roles: the repositories are shared (OrganisationRepositories); this adds the service. */
export function createRolesModule(deps: OrganisationRepositories & { db: Database }) {
  return createRolesService(deps);
}
