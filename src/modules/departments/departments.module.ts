import type { Database } from '../../core/db/client.js';
import type { DepartmentsRepository } from './departments.repository.js';
import { createDepartmentsService } from './departments.service.js';

/** Departments: the repository is shared (OrganisationRepositories); this adds the service. */
export function createDepartmentsModule(deps: { db: Database; departments: DepartmentsRepository }) {
  return createDepartmentsService(deps);
}
