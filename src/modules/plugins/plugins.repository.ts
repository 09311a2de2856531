import { and, asc, count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { namespacePlugins } from '../../core/db/schema/index.js';

export type NamespacePluginRow = typeof namespacePlugins.$inferSelect;

/** The plugins installed on namespaces (`namespace_plugins`), enabled or not. */
export function createPluginsRepository(db: Database) {
  const byKey = (namespaceId: string, pluginId: string) =>
    and(eq(namespacePlugins.namespaceId, namespaceId), eq(namespacePlugins.pluginId, pluginId));

  return {
    async find(
      namespaceId: string,
      pluginId: string,
      tx: DbExecutor = db,
    ): Promise<NamespacePluginRow | null> {
      const [row] = await tx.select().from(namespacePlugins).where(byKey(namespaceId, pluginId)).limit(1);
      return row ?? null;
    },

    /** The namespace's plugins in the order they were installed. */
    async listOfNamespace(namespaceId: string, page: Page, tx: DbExecutor = db) {
      const where = eq(namespacePlugins.namespaceId, namespaceId);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(namespacePlugins)
            .where(where)
            .orderBy(asc(namespacePlugins.createdAt), asc(namespacePlugins.pluginId))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(namespacePlugins).where(where),
      });
    },

    /** The enabled plugins of a namespace, in the order they run (installation order). */
    async enabledOf(namespaceId: string, tx: DbExecutor = db): Promise<NamespacePluginRow[]> {
      return tx
        .select()
        .from(namespacePlugins)
        .where(and(eq(namespacePlugins.namespaceId, namespaceId), eq(namespacePlugins.enabled, true)))
        .orderBy(asc(namespacePlugins.createdAt), asc(namespacePlugins.pluginId));
    },

    /**
     * Installs the plugin on the namespace, or replaces the existing
     * installation's config and enabled flag. Answers the row and whether it is new.
     */
    async upsert(
      values: { namespaceId: string; pluginId: string; config: Record<string, unknown>; enabled: boolean },
      tx: DbExecutor = db,
    ): Promise<{ row: NamespacePluginRow; created: boolean }> {
      const [row] = await tx
        .insert(namespacePlugins)
        .values(values)
        .onConflictDoUpdate({
          target: [namespacePlugins.namespaceId, namespacePlugins.pluginId],
          set: { config: values.config, enabled: values.enabled, updatedAt: new Date() },
        })
        // xmax is 0 for a row this statement inserted, set for one it updated.
        .returning({ ...getTableColumns(namespacePlugins), created: sql<boolean>`(xmax = 0)` });
      const { created, ...stored } = row!;
      return { row: stored, created: Boolean(created) };
    },

    async update(
      namespaceId: string,
      pluginId: string,
      patch: { config?: Record<string, unknown>; enabled?: boolean },
      tx: DbExecutor = db,
    ): Promise<NamespacePluginRow | null> {
      const [row] = await tx
        .update(namespacePlugins)
        .set(patch)
        .where(byKey(namespaceId, pluginId))
        .returning();
      return row ?? null;
    },
  };
}

export type PluginsRepository = ReturnType<typeof createPluginsRepository>;
