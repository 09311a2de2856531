import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { departments, employeeProfiles, roles, users } from '../../core/db/schema/index.js';
import { containsPattern } from '../../core/db/sql-helpers.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type RoleRow = typeof roles.$inferSelect;
export type EmployeeProfileRow = typeof employeeProfiles.$inferSelect;
export type UserDepartmentRow = typeof departments.$inferSelect;

export interface UserFilters {
  /** Role slug. */
  role?: string;
  departmentId?: string;
  /** Part of the name or email. */
  search?: string;
  isActive?: boolean;
}

export function createUsersRepository(db: Database) {
  // The two reads of every authenticated request and of GET /me are prepared once
  // (names are unique per statement): no query building per call, and PostgreSQL
  // parses and plans them once per connection.
  const withRole = db
    .select({ user: users, role: roles })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('users_find_with_role');
  // Only the columns GET /me shows: on the embedded database every column read costs.
  const departmentAndProfile = db
    .select({
      department: {
        id: departments.id,
        name: departments.name,
        slug: departments.slug,
        color: departments.color,
      },
      profile: {
        summary: employeeProfiles.summary,
        currentProjects: employeeProfiles.currentProjects,
        frequentIntents: employeeProfiles.frequentIntents,
        accessLevel: employeeProfiles.accessLevel,
      },
    })
    .from(users)
    .leftJoin(departments, eq(departments.id, users.departmentId))
    .leftJoin(employeeProfiles, eq(employeeProfiles.userId, users.id))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('users_find_department_and_profile');

  return {
    async findById(id: string, tx: DbExecutor = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return row ?? null;
    },

    /** Emails are stored lower-cased, so the lookup is exact. */
    async findByEmail(email: string, tx: DbExecutor = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row ?? null;
    },

    /** The user and their role in one query: what every authenticated request needs. */
    async findWithRole(id: string, tx: DbExecutor = db): Promise<{ user: UserRow; role: RoleRow } | null> {
      if (tx === db) return (await withRole.execute({ id }))[0] ?? null;
      const [row] = await tx
        .select({ user: users, role: roles })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(eq(users.id, id))
        .limit(1);
      return row ?? null;
    },

    /** The user's primary department and employee profile, as GET /me shows them, in one prepared query. */
    async findDepartmentAndProfile(id: string): Promise<{
      department: Pick<UserDepartmentRow, 'id' | 'name' | 'slug' | 'color'> | null;
      profile: Pick<
        EmployeeProfileRow,
        'summary' | 'currentProjects' | 'frequentIntents' | 'accessLevel'
      > | null;
    }> {
      return (await departmentAndProfile.execute({ id }))[0] ?? { department: null, profile: null };
    },

    /** Creates the user together with the employee profile every user has. */
    async insertWithProfile(values: NewUser, tx: DbExecutor = db): Promise<UserRow> {
      const [user] = await tx
        .insert(users)
        .values({ ...values, email: values.email.toLowerCase() })
        .returning();
      await tx.insert(employeeProfiles).values({ userId: user!.id });
      return user!;
    },

    async update(id: string, patch: Partial<NewUser>, tx: DbExecutor = db): Promise<UserRow | null> {
      const [row] = await tx.update(users).set(patch).where(eq(users.id, id)).returning();
      return row ?? null;
    },

    /** Invalidates every token of the user, optionally with other changes in the same write. */
    async bumpTokenVersion(
      id: string,
      patch: Partial<NewUser> = {},
      tx: DbExecutor = db,
    ): Promise<UserRow | null> {
      const [row] = await tx
        .update(users)
        .set({ ...patch, tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, id))
        .returning();
      return row ?? null;
    },

    /** Locks the user row until the transaction ends: override changes are read-modify-write. */
    async findByIdForUpdate(id: string, tx: DbExecutor): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
      return row ?? null;
    },

    /** Users whose primary department is inside `scope`, by name. */
    async list(
      scope: DepartmentScope,
      filters: UserFilters,
      page: { limit: number; offset: number },
      tx: DbExecutor = db,
    ): Promise<{ rows: UserRow[]; total: number }> {
      const conditions: (SQL | undefined)[] = [
        scopeCondition(scope, users.departmentId),
        filters.role ? eq(users.role, filters.role) : undefined,
        filters.departmentId ? eq(users.departmentId, filters.departmentId) : undefined,
        filters.isActive === undefined ? undefined : eq(users.isActive, filters.isActive),
      ];
      if (filters.search) {
        const pattern = containsPattern(filters.search);
        conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern)));
      }
      const where = and(...conditions);
      const rows = await tx
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.name), asc(users.id))
        .limit(page.limit)
        .offset(page.offset);
      const [counted] = await tx.select({ total: count() }).from(users).where(where);
      return { rows, total: counted?.total ?? 0 };
    },

    /** Keeps `users.role` (the slug copy) in step when a role's slug changes. */
    async setRoleSlug(roleId: string, slug: string, tx: DbExecutor = db): Promise<void> {
      await tx.update(users).set({ role: slug }).where(eq(users.roleId, roleId));
    },

    async findProfile(userId: string, tx: DbExecutor = db): Promise<EmployeeProfileRow | null> {
      const [row] = await tx
        .select()
        .from(employeeProfiles)
        .where(eq(employeeProfiles.userId, userId))
        .limit(1);
      return row ?? null;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
