import { Type } from 'typebox';
import { DateTime, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';
import { PLUGIN_HOOKS } from './plugin.js';

export const PLUGIN_ID_PATTERN = '^[a-z0-9][a-z0-9._-]{0,62}$';

const PluginId = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: PLUGIN_ID_PATTERN,
  description: 'Plugin id: lower-case letters, digits, dot, underscore or hyphen',
});

export const PluginInfo = Type.Object({
  id: PluginId,
  name: Type.String({ description: 'Display name of the plugin' }),
  description: Type.String({ description: 'What the plugin does' }),
  version: Type.String({ description: 'Version of the plugin' }),
  source: Type.Union([Type.Literal('builtin'), Type.Literal('operator')], {
    description: 'builtin (shipped) or operator (loaded from PLUGINS_DIR)',
  }),
  hooks: Type.Array(
    Type.Union([
      Type.Literal('before_generate'),
      Type.Literal('after_confidence_check'),
      Type.Literal('after_delivery'),
    ]),
    { description: `Pipeline points where the plugin acts: ${PLUGIN_HOOKS.join(', ')}` },
  ),
  configSchema: Type.Record(Type.String(), Type.Unknown(), {
    description: 'JSON Schema of the plugin configuration of a namespace',
  }),
  secretFields: Type.Array(Type.String(), {
    description: 'Write-only configuration keys: never answered, shown as [set]',
  }),
});

export const ListPluginsQuery = Type.Object(PaginationQuery, { additionalProperties: false });
export const PluginPage = OffsetPage(PluginInfo);

export const NamespacePluginParams = Type.Object({
  id: Uuid('Namespace id'),
  pluginId: PluginId,
});

export const PluginConfig = Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), {
  description: "Plugin configuration, validated against the plugin's configSchema",
  maxProperties: 100,
});

const Enabled = Type.Boolean({ description: 'Whether the plugin runs for the namespace (default true)' });

export const InstallPluginBody = Type.Object(
  { config: Type.Optional(PluginConfig), enabled: Type.Optional(Enabled) },
  { additionalProperties: false },
);

export const UpdatePluginBody = Type.Object(
  { config: Type.Optional(PluginConfig), enabled: Type.Optional(Enabled) },
  { additionalProperties: false },
);

export const NamespacePlugin = Type.Object({
  namespaceId: Uuid('Namespace id'),
  pluginId: PluginId,
  name: Type.String({ description: 'Display name of the plugin' }),
  version: Type.String({ description: 'Version of the plugin' }),
  enabled: Type.Boolean({ description: 'Whether the plugin runs for the namespace' }),
  registered: Type.Boolean({
    description: 'false when the plugin is no longer registered in this service (it does not run)',
  }),
  config: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Plugin configuration; write-only keys read as [set]',
  }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ListNamespacePluginsQuery = Type.Object(PaginationQuery, { additionalProperties: false });
export const NamespacePluginPage = OffsetPage(NamespacePlugin);
