import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { departments, namespaces } from '../../core/db/schema/index.js';

export type NamespaceRow = typeof namespaces.$inferSelect;
export type NewNamespace = typeof namespaces.$inferInsert;

export function createNamespacesRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<NamespaceRow | null> {
      const [row] = await tx.select().from(namespaces).where(eq(namespaces.id, id)).limit(1);
      return row ?? null;
    },

    /** Namespaces inside `scope`, newest first. */
    async list(
      scope: DepartmentScope,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: NamespaceRow[]; total: number }> {
      const where: SQL | undefined = scopeCondition(scope, namespaces.departmentId);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(namespaces)
            .where(where)
            .orderBy(desc(namespaces.createdAt), desc(namespaces.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(namespaces).where(where),
      });
    },

    async insert(values: NewNamespace, tx: DbExecutor = db): Promise<NamespaceRow> {
      const [row] = await tx.insert(namespaces).values(values).returning();
      return row!;
    },

    async update(
      id: string,
      patch: Partial<Pick<NewNamespace, 'name' | 'systemPrompt' | 'persona' | 'config'>>,
      tx: DbExecutor = db,
    ): Promise<NamespaceRow | null> {
      const [row] = await tx.update(namespaces).set(patch).where(eq(namespaces.id, id)).returning();
      return row ?? null;
    },

    /** Deletes the namespace; its intents, plugins and templates cascade, tasks and conversations keep a null link. */
    async delete(id: string, tx: DbExecutor = db): Promise<boolean> {
      const rows = await tx.delete(namespaces).where(eq(namespaces.id, id)).returning({ id: namespaces.id });
      return rows.length > 0;
    },

    /** Removes `settings.defaultNamespaceId` from the department when it names this namespace. */
    async clearDefaultOf(departmentId: string, namespaceId: string, tx: DbExecutor = db): Promise<void> {
      await tx
        .update(departments)
        .set({ settings: sql`${departments.settings} - 'defaultNamespaceId'` })
        .where(
          and(
            eq(departments.id, departmentId),
            sql`${departments.settings}->>'defaultNamespaceId' = ${namespaceId}`,
          ),
        );
    },
  };
}

export type NamespacesRepository = ReturnType<typeof createNamespacesRepository>;
