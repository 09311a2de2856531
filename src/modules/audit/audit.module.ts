import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { UsersRepository } from '../users/users.repository.js';
import { createAuditRepository } from './audit.repository.js';
import { auditRoutes } from './audit.routes.js';
import { createAuditService } from './audit.service.js';

/** The audit log: the hook's writer and the read endpoints. */
export function createAuditModule(deps: { db: Database; users: UsersRepository }) {
  const audit = createAuditRepository(deps.db);
  const service = createAuditService({ audit, users: deps.users });
  return defineModule({
    service,
    repositories: { audit },
    routes: (api) => api.register(auditRoutes, { audit: service }),
  });
}
