import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPluginsDir } from './loader.js';
import { createPluginRegistry, definitionProblems } from './registry.js';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/plugins');

const quiet = () => {
  const warnings: Array<Record<string, unknown>> = [];
  return {
    warnings,
    logger: {
      info: () => undefined,
      warn: (o: Record<string, unknown>) => warnings.push(o),
      error: () => undefined,
    },
  };
};

describe('plugin registry', () => {
  it('lists every problem of an invalid definition', () => {
    expect(definitionProblems({ id: 'Bad Id', name: '', hooks: { after_send: () => undefined } })).toEqual([
      'id must be 1-63 lower-case letters, digits, ".", "_" or "-"',
      'name must be a non-empty string of at most 500 characters',
      'description must be a non-empty string of at most 500 characters',
      'version must be a non-empty string of at most 500 characters',
      'configSchema must be a JSON Schema object',
      'hooks.after_send is not a hook (before_generate, after_confidence_check, after_delivery)',
      'hooks must have at least one of before_generate, after_confidence_check, after_delivery',
    ]);
    expect(definitionProblems(null)).toEqual(['the export is not an object']);
  });

  it('refuses a second plugin with the same id and a schema that does not compile', () => {
    const registry = createPluginRegistry();
    const plugin = {
      id: 'one',
      name: 'One',
      description: 'd',
      version: '1',
      configSchema: { type: 'object' },
      hooks: { before_generate: () => undefined },
    };
    registry.register(plugin, 'operator');
    expect(() => registry.register(plugin, 'operator')).toThrow(/already registered/);
    expect(() =>
      registry.register({ ...plugin, id: 'two', configSchema: { type: 'nonsense' } }, 'operator'),
    ).toThrow(/configSchema does not compile/);
  });

  it('loads the documented example plugin from a folder', async () => {
    const registry = createPluginRegistry();
    const { logger, warnings } = quiet();
    expect(await loadPluginsDir(EXAMPLES, registry, logger)).toEqual(['reply-signature']);
    expect(warnings).toEqual([]);
    const example = registry.get('reply-signature')!;
    expect(example).toMatchObject({
      source: 'operator',
      hooks: ['before_generate', 'after_confidence_check'],
    });
    expect(registry.check(example, {})).toEqual([{ field: 'body.config.signature', message: 'is required' }]);
    expect(registry.check(example, { signature: '— HR' })).toEqual([]);
  });

  it('logs and skips a folder that cannot be read', async () => {
    const { logger, warnings } = quiet();
    expect(await loadPluginsDir('/nonexistent/plugins', createPluginRegistry(), logger)).toEqual([]);
    expect(warnings).toHaveLength(1);
  });
});
