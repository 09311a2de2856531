import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition, PluginLogger } from './plugin.js';
import type { PluginRegistry } from './registry.js';

const PLUGIN_FILE = /\.(m?js)$/;

/**
 * Loads the operator plugins of `dir`: every `*.js` and `*.mjs` file (not
 * sub-folders), in name order, whose default export (or `plugin` export) is
 * a plugin definition. A file that fails to import, or exports something
 * that is not a valid plugin (or reuses an id), is logged and skipped; the
 * service starts anyway. A missing folder is logged and ignored.
 * Answers the ids registered.
 */
export async function loadPluginsDir(
  dir: string,
  registry: PluginRegistry,
  logger: PluginLogger,
): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && PLUGIN_FILE.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    logger.warn({ dir, err: error }, 'plugins: PLUGINS_DIR cannot be read; no operator plugins loaded');
    return [];
  }
  const loaded: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const exported = (await import(pathToFileURL(file).href)) as { default?: unknown; plugin?: unknown };
      const definition = (exported.default ?? exported.plugin) as PluginDefinition;
      const registered = registry.register(definition, 'operator');
      loaded.push(registered.definition.id);
      logger.info({ file, pluginId: registered.definition.id }, 'plugins: operator plugin loaded');
    } catch (error) {
      logger.warn({ file, reason: (error as Error).message }, 'plugins: invalid plugin skipped');
    }
  }
  return loaded;
}
