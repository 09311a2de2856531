import { randomUUID } from 'node:crypto';
import type { Database, DatabaseDriver } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { ActivePlugin, PluginLogger } from './plugin.js';
import type { PluginsRepository } from './plugins.repository.js';
import type { PluginRegistry } from './registry.js';

/**
 * Version marks of each namespace's plugin installations, so a worker can
 * keep a namespace's enabled plugins in memory and still see a change made
 * through any replica before the changing request answers (the same scheme
 * as the cached actors of core/auth/access-stamps.ts).
 */
export interface PluginMarks {
  readonly kind: 'memory' | 'key-value' | 'none';
  read(namespaceId: string): Promise<string> | string;
  /** Call after a change to the namespace's plugins commits. */
  bump(namespaceId: string): Promise<void>;
}

const markKey = (namespaceId: string) => `plugins-mark:${namespaceId}`;
const MARK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Memory marks belong to the embedded database they version, so two containers on one handle share them. */
const memoryMarks = new WeakMap<Database, PluginMarks>();

/**
 * The marks a deployment can trust: Redis when it is there (one GET per
 * task, no database round trip); this process's memory for the embedded
 * database (every writer is in this process); none on PostgreSQL without
 * Redis, where a mark in the key-value table would cost the query it saves.
 */
export function pluginMarksFor(db: Database, driver: DatabaseDriver, kv: KeyValue): PluginMarks {
  if (kv.kind === 'redis') {
    return {
      kind: 'key-value',
      read: async (namespaceId) => (await kv.get(markKey(namespaceId))) ?? '-',
      bump: (namespaceId) => kv.set(markKey(namespaceId), randomUUID(), MARK_TTL_MS),
    };
  }
  if (driver === 'pglite') {
    const bound = memoryMarks.get(db);
    if (bound) return bound;
    const marks = new Map<string, string>();
    const created: PluginMarks = {
      kind: 'memory',
      read: (namespaceId) => marks.get(namespaceId) ?? '-',
      bump: async (namespaceId) => {
        marks.set(namespaceId, randomUUID());
      },
    };
    memoryMarks.set(db, created);
    return created;
  }
  return { kind: 'none', read: () => '', bump: async () => undefined };
}

/** Namespaces whose enabled plugins are kept; the oldest entry goes first past it. */
const CACHE_LIMIT = 5000;

/**
 * The enabled plugins of a namespace, as the pipeline runs them: read from
 * the database once and kept while the namespace's mark is unchanged. A
 * namespace with no plugin costs the pipeline no database round trip once
 * cached. Installations whose plugin is not registered in this process (an
 * operator plugin removed from PLUGINS_DIR) are skipped with a warning.
 */
export function createPluginRuntime(deps: {
  registry: PluginRegistry;
  repository: PluginsRepository;
  marks: PluginMarks;
  logger: PluginLogger;
}) {
  const { registry, repository, marks, logger } = deps;
  const cache = new Map<string, { mark: string; plugins: ActivePlugin[] }>();
  const warned = new Set<string>();

  async function load(namespaceId: string): Promise<ActivePlugin[]> {
    const rows = await repository.enabledOf(namespaceId);
    const active: ActivePlugin[] = [];
    for (const row of rows) {
      const plugin = registry.get(row.pluginId);
      if (plugin) active.push({ definition: plugin.definition, config: row.config });
      else if (!warned.has(row.pluginId)) {
        warned.add(row.pluginId);
        logger.warn(
          { pluginId: row.pluginId, namespaceId },
          'plugins: an enabled plugin is not registered; skipped',
        );
      }
    }
    return active;
  }

  return {
    /** The namespace's enabled plugins, in the order they run. */
    async enabledFor(namespaceId: string): Promise<ActivePlugin[]> {
      if (marks.kind === 'none') return load(namespaceId);
      // The mark is read before the rows, so a change committed in between is seen on the next read.
      const mark = await marks.read(namespaceId);
      const cached = cache.get(namespaceId);
      if (cached && cached.mark === mark) return cached.plugins;
      const plugins = await load(namespaceId);
      cache.delete(namespaceId);
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      cache.set(namespaceId, { mark, plugins });
      return plugins;
    },

    /** Drops the namespace's entry here and moves its mark, so every replica reloads on its next task. */
    async invalidate(namespaceId: string): Promise<void> {
      cache.delete(namespaceId);
      await marks.bump(namespaceId);
    },
  };
}

export type PluginRuntime = ReturnType<typeof createPluginRuntime>;
