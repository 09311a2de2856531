import type { Database, DatabaseDriver } from '../../core/db/client.js';
import { type FreshnessMarks, freshnessMarksFor } from '../../core/kv/freshness-marks.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { rememberRecent } from '../../core/memo.js';
import type { ActivePlugin, PluginLogger } from './plugin.js';
import type { PluginsRepository } from './plugins.repository.js';
import type { PluginRegistry } from './registry.js';

/**
 * Version marks of each namespace's plugin installations (keyed by
 * namespace id), so a worker can keep a namespace's enabled plugins in
 * memory and still see a change made through any replica before the
 * changing request answers (core/kv/freshness-marks.ts).
 */
export type PluginMarks = FreshnessMarks;

/** The plugin marks a deployment can trust (Redis, the embedded database's memory, or none). */
export function pluginMarksFor(db: Database, driver: DatabaseDriver, kv: KeyValue): PluginMarks {
  return freshnessMarksFor(db, driver, kv, 'plugins-mark');
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
  const cache = new Map<string, { mark: string | null; plugins: ActivePlugin[] }>();
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
      rememberRecent(cache, namespaceId, { mark, plugins }, CACHE_LIMIT);
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
