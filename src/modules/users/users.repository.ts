import { eq, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { employeeProfiles, roles, users } from '../../core/db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type RoleRow = typeof roles.$inferSelect;
export type EmployeeProfileRow = typeof employeeProfiles.$inferSelect;

export function createUsersRepository(db: Database) {
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
      const [row] = await tx
        .select({ user: users, role: roles })
        .from(users)
        .innerJoin(roles, eq(roles.id, users.roleId))
        .where(eq(users.id, id))
        .limit(1);
      return row ?? null;
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
