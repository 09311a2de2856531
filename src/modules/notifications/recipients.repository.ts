import { and, eq, or, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { roles, users } from '../../core/db/schema/index.js';
import { uuidArrayInText } from '../../core/db/sql-helpers.js';

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

/** The users a notice might go to, with what their effective access is computed from. */
export function createRecipientsRepository(db: Database) {
  return {
    /**
     * Active users who might reach `departmentId` and might hold what is
     * asked: a permission (through their role or an extra grant) or a role.
     * The caller computes effective access from the answer (revocations are
     * applied there). Two statements: the matching roles (unless given as
     * `knownRoleIds`, the roles that grant the permission), then their users
     * through `users_role_id_idx` and, for a permission, the extra grants
     * through the GIN index `users_extra_permissions_idx`; so a company of
     * thousands of employees answers its few approvers without reading
     * every user (4 ms at 20,000 users before, measured). The role ids are
     * written into the statement's text ({@link uuidArrayInText}): as a
     * parameter, the prepared statement's generic plan scanned every user
     * again (0.9 ms at 5,000 users, against 0.13 ms).
     */
    async accessCandidates(
      departmentId: string,
      only: { permission: string } | { roleSlug: string },
      tx: DbExecutor = db,
      knownRoleIds?: readonly string[],
    ): Promise<AccessCandidate[]> {
      // The roles first (unless the caller read them), so that the users query carries their ids: planned
      // with the ids, the statistics show how few users hold them (a subquery or a parameter in their place
      // is planned blind, as a scan of every user).
      const roleIds =
        knownRoleIds ??
        (
          await tx
            .select({ id: roles.id })
            .from(roles)
            .where(
              'permission' in only
                ? sql`${only.permission} = any(${roles.permissions})`
                : eq(roles.slug, only.roleSlug),
            )
        ).map((role) => role.id);
      const ofRoles =
        roleIds.length > 0 ? sql`${users.roleId} = any(${uuidArrayInText(roleIds)})` : undefined;
      const holders =
        'permission' in only
          ? or(ofRoles, sql`${users.extraPermissions} @> array[${only.permission}]::text[]`)
          : ofRoles && and(ofRoles, eq(users.role, only.roleSlug));
      if (!holders) return [];
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
            holders,
            eq(users.isActive, true),
            or(
              eq(roles.allDepartments, true),
              eq(users.departmentId, departmentId),
              sql`${departmentId} = any(${users.extraDepartmentIds})`,
              sql`${departmentId} = any(${roles.departmentIds})`,
            ),
          ),
        )
        .orderBy(users.id);
      return rows.map(({ allDepartments, roleDepartmentIds, permissions, ...user }) => ({
        ...user,
        role: { allDepartments, departmentIds: roleDepartmentIds, permissions },
      }));
    },
  };
}

export type RecipientsRepository = ReturnType<typeof createRecipientsRepository>;
