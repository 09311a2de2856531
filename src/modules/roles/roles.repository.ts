import { and, asc, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { roles, users } from '../../core/db/schema/index.js';
import { containsPattern } from '../../core/db/sql-helpers.js';

export type RoleRow = typeof roles.$inferSelect;
export type NewRole = typeof roles.$inferInsert;

export interface RoleFilters {
  search?: string;
  includeSystem: boolean;
}

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

    async insert(values: NewRole, tx: DbExecutor = db): Promise<RoleRow> {
      const [row] = await tx.insert(roles).values(values).returning();
      return row!;
    },

    async update(id: string, patch: Partial<NewRole>, tx: DbExecutor = db): Promise<RoleRow | null> {
      const [row] = await tx.update(roles).set(patch).where(eq(roles.id, id)).returning();
      return row ?? null;
    },

    async delete(id: string, tx: DbExecutor = db): Promise<void> {
      await tx.delete(roles).where(eq(roles.id, id));
    },

    /** Roles by name; system roles only when asked for. */
    async list(
      filters: RoleFilters,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: RoleRow[]; total: number }> {
      const conditions: (SQL | undefined)[] = [];
      if (!filters.includeSystem) conditions.push(eq(roles.isSystem, false));
      if (filters.search) {
        const pattern = containsPattern(filters.search);
        conditions.push(or(ilike(roles.name, pattern), ilike(roles.slug, pattern)));
      }
      const where = and(...conditions);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(roles)
            .where(where)
            .orderBy(asc(roles.name), asc(roles.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(roles).where(where),
      });
    },

    /** How many users hold each of the roles (active or not). */
    async userCounts(roleIds: readonly string[], tx: DbExecutor = db): Promise<Map<string, number>> {
      if (roleIds.length === 0) return new Map();
      const rows = await tx
        .select({ roleId: users.roleId, total: count() })
        .from(users)
        .where(inArray(users.roleId, [...roleIds]))
        .groupBy(users.roleId);
      return new Map(rows.map((r) => [r.roleId, r.total]));
    },

    /** Slugs equal to `base` or of the form `base-<n>`, to pick a free one. */
    async slugsLike(base: string, tx: DbExecutor = db): Promise<string[]> {
      const rows = await tx
        .select({ slug: roles.slug })
        .from(roles)
        .where(or(eq(roles.slug, base), ilike(roles.slug, `${containsPattern(base).slice(1, -1)}-%`)));
      return rows.map((r) => r.slug);
    },
  };
}

export type RolesRepository = ReturnType<typeof createRolesRepository>;
