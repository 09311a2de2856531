import { and, asc, count, eq, ilike, type SQL } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { employeeProfiles, users } from '../../core/db/schema/index.js';
import { containsPattern } from '../../core/db/sql-helpers.js';

export type EmployeeProfileRow = typeof employeeProfiles.$inferSelect;
export type EmployeeProfilePatch = Partial<
  Pick<
    typeof employeeProfiles.$inferInsert,
    'summary' | 'currentProjects' | 'preferences' | 'frequentIntents' | 'accessLevel' | 'metadata'
  >
>;

/** A profile with the owner fields its responses and scope checks need. */
export interface ProfileWithOwner {
  profile: EmployeeProfileRow;
  name: string;
  departmentId: string;
  isActive: boolean;
}

const selection = {
  profile: employeeProfiles,
  name: users.name,
  departmentId: users.departmentId,
  isActive: users.isActive,
};

export function createEmployeeProfilesRepository(db: Database) {
  return {
    async findByUserId(userId: string, tx: DbExecutor = db): Promise<ProfileWithOwner | null> {
      const [row] = await tx
        .select(selection)
        .from(employeeProfiles)
        .innerJoin(users, eq(users.id, employeeProfiles.userId))
        .where(eq(employeeProfiles.userId, userId))
        .limit(1);
      return row ?? null;
    },

    /** Profiles of users whose primary department is inside `scope`, by owner name. */
    async list(
      scope: DepartmentScope,
      filters: { search?: string },
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: ProfileWithOwner[]; total: number }> {
      const conditions: (SQL | undefined)[] = [scopeCondition(scope, users.departmentId)];
      if (filters.search) conditions.push(ilike(users.name, containsPattern(filters.search)));
      const where = and(...conditions);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select(selection)
            .from(employeeProfiles)
            .innerJoin(users, eq(users.id, employeeProfiles.userId))
            .where(where)
            .orderBy(asc(users.name), asc(users.id))
            .limit(limit)
            .offset(offset),
        total: () =>
          tx
            .select({ total: count() })
            .from(employeeProfiles)
            .innerJoin(users, eq(users.id, employeeProfiles.userId))
            .where(where),
      });
    },

    async update(userId: string, patch: EmployeeProfilePatch, tx: DbExecutor = db): Promise<void> {
      await tx.update(employeeProfiles).set(patch).where(eq(employeeProfiles.userId, userId));
    },
  };
}

export type EmployeeProfilesRepository = ReturnType<typeof createEmployeeProfilesRepository>;
