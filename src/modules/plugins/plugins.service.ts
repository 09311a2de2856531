import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import { NotFoundError, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { PluginRuntime } from './plugin-runtime.js';
import type { NamespacePluginRow, PluginsRepository } from './plugins.repository.js';
import type { PluginRegistry, RegisteredPlugin } from './registry.js';

/** What a write-only config value reads as. */
export const SECRET_SET = '[set]';

/** What an install or update may set on a namespace's plugin. */
interface PluginSettings {
  config?: Record<string, unknown>;
  enabled?: boolean;
}

interface PluginsServiceDeps {
  registry: PluginRegistry;
  repository: PluginsRepository;
  namespaces: { findById(id: string): Promise<{ id: string; departmentId: string } | null> };
  runtime: Pick<PluginRuntime, 'invalidate'>;
}

/** `config` with every set write-only key replaced by {@link SECRET_SET}. */
export function maskSecrets(config: Record<string, unknown>, secretFields: readonly string[] = []) {
  const masked: Record<string, unknown> = { ...config };
  for (const key of secretFields) if (masked[key] !== undefined) masked[key] = SECRET_SET;
  return masked;
}

/**
 * The config to store: a write-only key left out, or sent back as
 * {@link SECRET_SET}, keeps its stored value (a client edits the rest
 * without knowing the secret).
 */
function withKeptSecrets(
  config: Record<string, unknown>,
  stored: Record<string, unknown> | undefined,
  secretFields: readonly string[] = [],
): Record<string, unknown> {
  const merged = { ...config };
  for (const key of secretFields) {
    if ((merged[key] === undefined || merged[key] === SECRET_SET) && stored?.[key] !== undefined) {
      merged[key] = stored[key];
    } else if (merged[key] === SECRET_SET) delete merged[key];
  }
  return merged;
}

function toPluginInfo(plugin: RegisteredPlugin) {
  const { definition } = plugin;
  return {
    id: definition.id,
    name: definition.name,
    description: definition.description,
    version: definition.version,
    source: plugin.source,
    hooks: plugin.hooks,
    configSchema: definition.configSchema,
    secretFields: [...(definition.secretFields ?? [])],
  };
}

export function createPluginsService(deps: PluginsServiceDeps) {
  const { registry, repository, runtime } = deps;

  function toNamespacePlugin(row: NamespacePluginRow) {
    const plugin = registry.get(row.pluginId);
    return {
      namespaceId: row.namespaceId,
      pluginId: row.pluginId,
      name: plugin?.definition.name ?? row.pluginId,
      version: plugin?.definition.version ?? '',
      enabled: row.enabled,
      registered: plugin !== null,
      // An unregistered plugin's secret keys are unknown: answer none of its config.
      config: plugin ? maskSecrets(row.config, plugin.definition.secretFields) : {},
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
    };
  }

  async function visibleNamespace(actor: Actor, id: string) {
    return assertVisible(
      actor,
      await deps.namespaces.findById(id),
      (n) => n.departmentId,
      `Namespace ${id} not found`,
    );
  }

  function knownPlugin(pluginId: string): RegisteredPlugin {
    const plugin = registry.get(pluginId);
    if (!plugin) throw new NotFoundError(`Plugin ${pluginId} not found`);
    return plugin;
  }

  /** The plugin and its installation on the namespace, if any; checks the namespace first, then the plugin. */
  async function installationOf(actor: Actor, namespaceId: string, pluginId: string) {
    await visibleNamespace(actor, namespaceId);
    const plugin = knownPlugin(pluginId);
    return { plugin, existing: await repository.find(namespaceId, pluginId) };
  }

  function checkedConfig(
    plugin: RegisteredPlugin,
    config: Record<string, unknown>,
    stored: Record<string, unknown> | undefined,
  ) {
    const merged = withKeptSecrets(config, stored, plugin.definition.secretFields);
    const problems = registry.check(plugin, merged);
    if (problems.length > 0) throw new ValidationError(problems);
    return merged;
  }

  return {
    /** Every registered plugin, built-ins first. */
    catalog(query: { limit?: number; offset?: number }) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const all = registry.list();
      return { items: all.slice(offset, offset + limit).map(toPluginInfo), total: all.length, limit, offset };
    },

    /**
     * The plugins installed on a namespace, enabled or not, in installation order.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async listOfNamespace(actor: Actor, namespaceId: string, query: { limit?: number; offset?: number }) {
      await visibleNamespace(actor, namespaceId);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await repository.listOfNamespace(namespaceId, { limit, offset });
      return { items: rows.map(toNamespacePlugin), total, limit, offset };
    },

    /**
     * One installation of a namespace, enabled or not.
     * @throws NotFoundError for a namespace outside the actor's departments or a plugin not installed there.
     */
    async getOfNamespace(actor: Actor, namespaceId: string, pluginId: string) {
      await visibleNamespace(actor, namespaceId);
      const row = await repository.find(namespaceId, pluginId);
      if (!row) throw new NotFoundError(`Plugin ${pluginId} is not installed on namespace ${namespaceId}`);
      return toNamespacePlugin(row);
    },

    /**
     * Installs a plugin on a namespace (enabled unless `enabled: false`), or
     * replaces an existing installation's config and flag. The namespace's
     * cached plugins are dropped on every replica before this answers.
     * @throws NotFoundError for a namespace outside the actor's departments or an unknown plugin.
     * @throws ValidationError when the config does not satisfy the plugin's schema.
     */
    async install(actor: Actor, namespaceId: string, pluginId: string, input: PluginSettings) {
      const { plugin, existing } = await installationOf(actor, namespaceId, pluginId);
      const config = checkedConfig(plugin, input.config ?? {}, existing?.config);
      const { row, created } = await repository.upsert({
        namespaceId,
        pluginId,
        config,
        enabled: input.enabled ?? true,
      });
      await runtime.invalidate(namespaceId);
      return { plugin: toNamespacePlugin(row), created };
    },

    /**
     * Changes an installed plugin's config (replaced whole; write-only keys
     * left out keep their value) or enabled flag.
     * @throws NotFoundError for a namespace outside the actor's departments, an unknown plugin, or one not installed.
     * @throws ValidationError when the config does not satisfy the plugin's schema.
     */
    async update(actor: Actor, namespaceId: string, pluginId: string, input: PluginSettings) {
      const { plugin, existing } = await installationOf(actor, namespaceId, pluginId);
      if (!existing)
        throw new NotFoundError(`Plugin ${pluginId} is not installed on namespace ${namespaceId}`);
      const patch: PluginSettings = {};
      if (input.config !== undefined) patch.config = checkedConfig(plugin, input.config, existing.config);
      if (input.enabled !== undefined) patch.enabled = input.enabled;
      if (Object.keys(patch).length === 0) return toNamespacePlugin(existing);
      const row = (await repository.update(namespaceId, pluginId, patch)) ?? existing;
      await runtime.invalidate(namespaceId);
      return toNamespacePlugin(row);
    },

    /**
     * Marks an installed plugin disabled (its config is kept for a later
     * re-enable) and drops it from every replica's cache, so the next task no
     * longer runs it.
     * @throws NotFoundError for a namespace outside the actor's departments, or a plugin not installed there.
     */
    async disable(actor: Actor, namespaceId: string, pluginId: string): Promise<void> {
      await visibleNamespace(actor, namespaceId);
      const existing = await repository.find(namespaceId, pluginId);
      if (!existing) {
        knownPlugin(pluginId);
        throw new NotFoundError(`Plugin ${pluginId} is not installed on namespace ${namespaceId}`);
      }
      if (existing.enabled) await repository.update(namespaceId, pluginId, { enabled: false });
      await runtime.invalidate(namespaceId);
    },
  };
}

export type PluginsService = ReturnType<typeof createPluginsService>;
