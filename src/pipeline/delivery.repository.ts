import { and, eq, or, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../core/db/client.js';
import { approvals, intentInteractions, notifications, roles, users } from '../core/db/schema/index.js';

export type ApprovalRow = typeof approvals.$inferSelect;
export type NewApproval = typeof approvals.$inferInsert;
export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

/** An active user with what effective access is computed from. */
export interface AccessCandidate {
  id: string;
  roleSlug: string;
  departmentId: string;
  extraPermissions: string[];
  revokedPermissions: string[];
  extraDepartmentIds: string[];
  revokedDepartmentIds: string[];
  role: { allDepartments: boolean; departmentIds: string[]; permissions: string[] };
}

/** Approvals, notifications and first interactions: what the delivery decision writes. */
export function createDeliveryRepository(db: Database) {
  return {
    /** Writes the task's approval; null when the task has one already (a replayed job). */
    async insertApproval(values: NewApproval, tx: DbExecutor): Promise<ApprovalRow | null> {
      const [row] = await tx.insert(approvals).values(values).onConflictDoNothing().returning();
      return row ?? null;
    },

    async findApprovalOfTask(taskId: string, tx: DbExecutor = db): Promise<ApprovalRow | null> {
      const [row] = await tx.select().from(approvals).where(eq(approvals.taskId, taskId)).limit(1);
      return row ?? null;
    },

    async insertNotifications(rows: NewNotification[], tx: DbExecutor): Promise<NotificationRow[]> {
      if (rows.length === 0) return [];
      return tx.insert(notifications).values(rows).returning();
    },

    /**
     * Active users who might reach `departmentId`: global roles, the
     * department as primary, extra or role department. The caller computes
     * effective access from the answer (revocations are applied there).
     * `only` narrows the rows in SQL to users who may hold the permission
     * (through their role or an extra grant) or the role: a department of
     * thousands of employees then answers its few approvers, not everyone.
     */
    async accessCandidates(
      departmentId: string,
      tx: DbExecutor = db,
      only: { permission?: string; roleSlug?: string } = {},
    ): Promise<AccessCandidate[]> {
      const rows = await tx
        .select({
          id: users.id,
          roleSlug: users.role,
          departmentId: users.departmentId,
          extraPermissions: users.extraPermissions,
          revokedPermissions: users.revokedPermissions,
          extraDepartmentIds: users.extraDepartmentIds,
          revokedDepartmentIds: users.revokedDepartmentIds,
          allDepartments: roles.allDepartments,
          roleDepartmentIds: roles.departmentIds,
          permissions: roles.permissions,
        })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(
          and(
            eq(users.isActive, true),
            or(
              eq(roles.allDepartments, true),
              eq(users.departmentId, departmentId),
              sql`${departmentId} = any(${users.extraDepartmentIds})`,
              sql`${departmentId} = any(${roles.departmentIds})`,
            ),
            only.permission
              ? or(
                  sql`${only.permission} = any(${roles.permissions})`,
                  sql`${only.permission} = any(${users.extraPermissions})`,
                )
              : undefined,
            only.roleSlug ? eq(users.role, only.roleSlug) : undefined,
          ),
        )
        .orderBy(users.id);
      return rows.map(({ allDepartments, roleDepartmentIds, permissions, ...user }) => ({
        ...user,
        role: { allDepartments, departmentIds: roleDepartmentIds, permissions },
      }));
    },

    async hasInteraction(userId: string, namespaceId: string, intent: string, tx: DbExecutor = db) {
      const [row] = await tx
        .select({ userId: intentInteractions.userId })
        .from(intentInteractions)
        .where(
          and(
            eq(intentInteractions.userId, userId),
            eq(intentInteractions.namespaceId, namespaceId),
            eq(intentInteractions.intentName, intent),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Records that the employee has met this intent (idempotent). */
    async recordInteraction(userId: string, namespaceId: string, intent: string, tx: DbExecutor) {
      await tx
        .insert(intentInteractions)
        .values({ userId, namespaceId, intentName: intent })
        .onConflictDoNothing();
    },
  };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
