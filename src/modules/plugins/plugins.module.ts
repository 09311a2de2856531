import type { Database, DatabaseDriver } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { defineModule } from '../../core/module.js';
import { builtinPlugins } from './builtins/index.js';
import { loadPluginsDir } from './loader.js';
import type { PluginLogger } from './plugin.js';
import { createPluginRuntime, pluginMarksFor } from './plugin-runtime.js';
import { createPluginsRepository } from './plugins.repository.js';
import { pluginsRoutes } from './plugins.routes.js';
import { createPluginsService } from './plugins.service.js';
import { createPluginRegistry } from './registry.js';

/** Namespace plugins: the registry (built-ins, then PLUGINS_DIR), their installations, and the runtime cache. */
export async function createPluginsModule(deps: {
  db: Database;
  driver: DatabaseDriver;
  kv: KeyValue;
  logger: PluginLogger;
  namespaces: { findById(id: string): Promise<{ id: string; departmentId: string } | null> };
  config: { dir: string | null; webhookAllowPrivate: boolean };
}) {
  const registry = createPluginRegistry();
  for (const plugin of builtinPlugins({ webhookAllowPrivate: deps.config.webhookAllowPrivate })) {
    registry.register(plugin, 'builtin');
  }
  if (deps.config.dir) await loadPluginsDir(deps.config.dir, registry, deps.logger);
  const repository = createPluginsRepository(deps.db);
  const runtime = createPluginRuntime({
    registry,
    repository,
    marks: pluginMarksFor(deps.db, deps.driver, deps.kv),
    logger: deps.logger,
  });
  const service = createPluginsService({ registry, repository, namespaces: deps.namespaces, runtime });
  return defineModule({
    service,
    registry,
    runtime,
    repositories: { plugins: repository },
    routes: (api) => api.register(pluginsRoutes, { plugins: service }),
  });
}

export type PluginsModule = Awaited<ReturnType<typeof createPluginsModule>>;
