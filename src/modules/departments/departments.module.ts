import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { DepartmentsRepository } from './departments.repository.js';
import { departmentsRoutes } from './departments.routes.js';
import { createDepartmentsService } from './departments.service.js';

/** Departments: the repository is shared (OrganisationRepositories); this adds the service and its routes. */
export function createDepartmentsModule(deps: { db: Database; departments: DepartmentsRepository }) {
  const service = createDepartmentsService(deps);
  return defineModule({
    service,
    routes: (api) => api.register(departmentsRoutes, { departments: service }),
  });
}

export type DepartmentsModule = ReturnType<typeof createDepartmentsModule>;
