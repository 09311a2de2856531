import { and, count, desc, eq, gte, lt, or, type SQL } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { auditLogs, users } from '../../core/db/schema/index.js';

export type AuditLogRow = typeof auditLogs.$inferSelect;
export type NewAuditLog = typeof auditLogs.$inferInsert;

export interface AuditListRow extends AuditLogRow {
  userName: string | null;
  userEmail: string | null;
}

export interface AuditFilters {
  action?: string;
  entityType?: string;
  entityId?: string;
  userId?: string;
  /** Entries by this user or about this user (entity `users` with this id). */
  involvingUserId?: string;
  from?: Date;
  to?: Date;
}

function whereOf(scope: DepartmentScope, filters: AuditFilters): SQL | undefined {
  return and(
    // Scoped by the primary department of the user who acted; the left join
    // leaves entries without a user (or whose user is gone) to global callers.
    scopeCondition(scope, users.departmentId),
    filters.action ? eq(auditLogs.action, filters.action) : undefined,
    filters.entityType ? eq(auditLogs.entityType, filters.entityType) : undefined,
    filters.entityId ? eq(auditLogs.entityId, filters.entityId) : undefined,
    filters.userId ? eq(auditLogs.userId, filters.userId) : undefined,
    filters.involvingUserId
      ? or(
          eq(auditLogs.userId, filters.involvingUserId),
          and(eq(auditLogs.entityType, 'users'), eq(auditLogs.entityId, filters.involvingUserId)),
        )
      : undefined,
    filters.from ? gte(auditLogs.createdAt, filters.from) : undefined,
    filters.to ? lt(auditLogs.createdAt, filters.to) : undefined,
  );
}

export function createAuditRepository(db: Database) {
  return {
    async insert(values: NewAuditLog, tx: DbExecutor = db): Promise<void> {
      await tx.insert(auditLogs).values(values);
    },

    /** Newest first, with the acting user's name and email. */
    async list(
      scope: DepartmentScope,
      filters: AuditFilters,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: AuditListRow[]; total: number }> {
      const condition = whereOf(scope, filters);
      const { rows, total } = await pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select({ entry: auditLogs, userName: users.name, userEmail: users.email })
            .from(auditLogs)
            .leftJoin(users, eq(users.id, auditLogs.userId))
            .where(condition)
            .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
            .limit(limit)
            .offset(offset),
        total: () =>
          tx
            .select({ total: count() })
            .from(auditLogs)
            .leftJoin(users, eq(users.id, auditLogs.userId))
            .where(condition),
      });
      return {
        rows: rows.map((r) => ({ ...r.entry, userName: r.userName, userEmail: r.userEmail })),
        total,
      };
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
