import type { AuditEntryInput } from '../../core/audit/audit-hook.js';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import { iso } from '../../core/http/schemas.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { AuditFilters, AuditListRow, AuditRepository } from './audit.repository.js';

export interface AuditServiceDeps {
  audit: AuditRepository;
  users: UsersRepository;
}

export interface AuditListQuery {
  action?: string;
  entityType?: string;
  entityId?: string;
  userId?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

function toResponse(row: AuditListRow) {
  return {
    id: row.id,
    userId: row.userId,
    userName: row.userName,
    userEmail: row.userEmail,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    changes: row.changes ?? null,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    createdAt: iso(row.createdAt),
  };
}

function filtersOf(query: AuditListQuery): AuditFilters {
  return {
    ...(query.action ? { action: query.action } : {}),
    ...(query.entityType ? { entityType: query.entityType } : {}),
    ...(query.entityId ? { entityId: query.entityId } : {}),
    ...(query.userId ? { userId: query.userId } : {}),
    ...(query.from ? { from: new Date(query.from) } : {}),
    ...(query.to ? { to: new Date(query.to) } : {}),
  };
}

export function createAuditService(deps: AuditServiceDeps) {
  const { audit, users } = deps;

  async function page(actor: Actor, filters: AuditFilters, query: AuditListQuery) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const { rows, total } = await audit.list(departmentScope(actor), filters, { limit, offset });
    return { items: rows.map(toResponse), total, limit, offset };
  }

  return {
    /** Stores one entry; the audit hook calls it for every successful mutation. */
    async record(entry: AuditEntryInput): Promise<void> {
      await audit.insert(entry);
    },

    /**
     * Audit entries, newest first, filtered by action, entity and user. A
     * non-global caller sees only entries made by users whose primary
     * department is one of the caller's effective departments.
     */
    async list(actor: Actor, query: AuditListQuery) {
      return page(actor, filtersOf(query), query);
    },

    /**
     * Entries made by the user or about the user (entity `users`, this id),
     * under the same scope rule as `list`.
     * @throws NotFoundError when the user does not exist or is outside the caller's departments.
     */
    async listForUser(actor: Actor, userId: string, query: AuditListQuery) {
      const user = await users.findById(userId);
      assertVisible(actor, user, (u) => u.departmentId, `User ${userId} not found`);
      return page(actor, { ...filtersOf(query), involvingUserId: userId }, query);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
