import type { Database } from '../../core/db/client.js';
import type { UsersRepository } from '../users/users.repository.js';
import { createAuditRepository } from './audit.repository.js';
import { createAuditService } from './audit.service.js';

/** The audit log: the hook's writer and the read endpoints. */
export function createAuditModule(deps: { db: Database; users: UsersRepository }) {
  return createAuditService({ audit: createAuditRepository(deps.db), users: deps.users });
}
