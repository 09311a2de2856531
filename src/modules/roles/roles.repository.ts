import { eq } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { roles } from '../../core/db/schema/index.js';

export type RoleRow = typeof roles.$inferSelect;
export type NewRole = typeof roles.$inferInsert;

export function createRolesRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<RoleRow | null> {
      const [row] = await tx.select().from(roles).where(eq(roles.id, id)).limit(1);
      return row ?? null;
    },

    async findBySlug(slug: string, tx: DbExecutor = db): Promise<RoleRow | null> {
      const [row] = await tx.select().from(roles).where(eq(roles.slug, slug)).limit(1);
      return row ?? null;
    },

    /** Inserts a system role unless its slug exists; an administrator's later edits are kept. */
    async insertSystemRoleIfMissing(values: NewRole, tx: DbExecutor = db): Promise<void> {
      await tx
        .insert(roles)
        .values({ ...values, isSystem: true })
        .onConflictDoNothing({ target: roles.slug });
    },
  };
}

export type RolesRepository = ReturnType<typeof createRolesRepository>;
