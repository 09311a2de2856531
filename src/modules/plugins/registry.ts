import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { PLUGIN_HOOKS, type PluginDefinition, type PluginHookName } from './plugin.js';

/** Where a plugin comes from: shipped with the service, or loaded from PLUGINS_DIR. */
export type PluginSource = 'builtin' | 'operator';

export interface RegisteredPlugin {
  definition: PluginDefinition;
  source: PluginSource;
  hooks: PluginHookName[];
  validate: ValidateFunction;
}

/** A config problem, with the field as the API reports it (`body.config.<path>`). */
export interface ConfigFieldProblem {
  field: string;
  message: string;
}

const ID = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** Why `value` cannot be registered as a plugin; empty when it can. */
export function definitionProblems(value: unknown): string[] {
  if (!value || typeof value !== 'object') return ['the export is not an object'];
  const plugin = value as Partial<PluginDefinition>;
  const problems: string[] = [];
  if (typeof plugin.id !== 'string' || !ID.test(plugin.id)) {
    problems.push('id must be 1-63 lower-case letters, digits, ".", "_" or "-"');
  }
  for (const key of ['name', 'description', 'version'] as const) {
    if (typeof plugin[key] !== 'string' || plugin[key].trim() === '' || plugin[key].length > 500) {
      problems.push(`${key} must be a non-empty string of at most 500 characters`);
    }
  }
  if (!plugin.configSchema || typeof plugin.configSchema !== 'object') {
    problems.push('configSchema must be a JSON Schema object');
  }
  if (!plugin.hooks || typeof plugin.hooks !== 'object') problems.push('hooks must be an object');
  else {
    const hooks = plugin.hooks as Record<string, unknown>;
    for (const [name, hook] of Object.entries(hooks)) {
      if (!(PLUGIN_HOOKS as readonly string[]).includes(name)) {
        problems.push(`hooks.${name} is not a hook (${PLUGIN_HOOKS.join(', ')})`);
      } else if (typeof hook !== 'function') problems.push(`hooks.${name} must be a function`);
    }
    if (!PLUGIN_HOOKS.some((name) => typeof hooks[name] === 'function')) {
      problems.push(`hooks must have at least one of ${PLUGIN_HOOKS.join(', ')}`);
    }
  }
  if (plugin.validateConfig !== undefined && typeof plugin.validateConfig !== 'function') {
    problems.push('validateConfig must be a function');
  }
  if (
    plugin.secretFields !== undefined &&
    !(Array.isArray(plugin.secretFields) && plugin.secretFields.every((f) => typeof f === 'string'))
  ) {
    problems.push('secretFields must be an array of strings');
  }
  return problems;
}

function pathOf(error: ErrorObject): string {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') base.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') base.push(String(error.params.additionalProperty));
  return ['body', 'config', ...base].join('.');
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'enum') {
    return `must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
  }
  if (error.keyword === 'additionalProperties') return 'is not a setting of this plugin';
  if (error.keyword === 'required') return 'is required';
  return error.message ?? 'is invalid';
}

/**
 * The plugins this process knows: built-ins first, then operator plugins.
 * Each one's config schema is compiled once (ajv, every error reported).
 */
export function createPluginRegistry() {
  // Configs are validated as sent (no coercion, no defaults written into them), extra keys refused.
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
  addFormats.default(ajv);
  const plugins = new Map<string, RegisteredPlugin>();

  return {
    /**
     * Adds a plugin. @throws Error naming every problem of the definition, a
     * schema that does not compile, or an id already registered.
     */
    register(definition: PluginDefinition, source: PluginSource): RegisteredPlugin {
      const problems = definitionProblems(definition);
      if (problems.length > 0) throw new Error(problems.join('; '));
      if (plugins.has(definition.id))
        throw new Error(`a plugin with id "${definition.id}" is already registered`);
      let validate: ValidateFunction;
      try {
        validate = ajv.compile(definition.configSchema);
      } catch (error) {
        throw new Error(`configSchema does not compile: ${(error as Error).message}`);
      }
      const hooks = PLUGIN_HOOKS.filter((name) => typeof definition.hooks[name] === 'function');
      const registered = { definition, source, hooks, validate };
      plugins.set(definition.id, registered);
      return registered;
    },

    get(id: string): RegisteredPlugin | null {
      return plugins.get(id) ?? null;
    },

    /** Every plugin, built-ins first, each group by id. */
    list(): RegisteredPlugin[] {
      return [...plugins.values()].sort(
        (a, b) => a.source.localeCompare(b.source) || a.definition.id.localeCompare(b.definition.id),
      );
    },

    /** Problems of `config` for plugin `id`: its schema first, then its own check. */
    check(plugin: RegisteredPlugin, config: Record<string, unknown>): ConfigFieldProblem[] {
      if (!plugin.validate(config)) {
        const seen = new Set<string>();
        return (plugin.validate.errors ?? [])
          .map((error) => ({ field: pathOf(error), message: messageOf(error) }))
          .filter((p) => {
            const key = `${p.field}\n${p.message}`;
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          });
      }
      const own = plugin.definition.validateConfig?.(config) ?? [];
      return own.map((p) => ({
        field: ['body', 'config', p.path].filter(Boolean).join('.'),
        message: p.message,
      }));
    },
  };
}

export type PluginRegistry = ReturnType<typeof createPluginRegistry>;
