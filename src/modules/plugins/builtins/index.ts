import type { PluginDefinition } from '../plugin.js';
import { businessHoursPlugin } from './business-hours.plugin.js';
import { glossaryPlugin } from './glossary.plugin.js';
import { createWebhookPlugin } from './webhook.plugin.js';

/** The plugins shipped with the service. */
export function builtinPlugins(deps: { webhookAllowPrivate: boolean }): PluginDefinition[] {
  return [
    createWebhookPlugin({ allowPrivate: deps.webhookAllowPrivate }) as unknown as PluginDefinition,
    businessHoursPlugin as unknown as PluginDefinition,
    glossaryPlugin as unknown as PluginDefinition,
  ];
}
