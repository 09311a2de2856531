import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PLUGIN_EVENT_TYPES, type PluginDefinition, type PluginEventType } from '../plugin.js';
import { guardedPost, PermanentDeliveryError, SIGNATURE_HEADER, signBody } from './signed-post.js';

export interface WebhookConfig {
  url: string;
  secret: string;
  /** The event types sent; every type when absent. */
  events?: PluginEventType[];
}

/** Tries per event, and the pause before each retry. */
export const WEBHOOK_ATTEMPTS = 3;
export const WEBHOOK_BACKOFF_MS = [1000, 4000] as const;
/** One attempt's limit. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 5000;

const retryable = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * Outbound webhook: POSTs each task and approval event as JSON to the
 * configured URL, signed with `X-Signature-256: sha256=<hex HMAC-SHA256 of the
 * body with the secret>`, retried with backoff on network errors, timeouts,
 * 408, 429 and 5xx ({@link WEBHOOK_ATTEMPTS} tries in all).
 */
export function createWebhookPlugin(deps: { allowPrivate: boolean }): PluginDefinition<WebhookConfig> {
  return {
    id: 'webhook',
    name: 'Outbound webhook',
    description:
      'POSTs task and approval events as JSON to a URL, signed with an HMAC-SHA256 of the body in the X-Signature-256 header (sha256=<hex>), retried with backoff. Private and loopback addresses are refused unless PLUGIN_WEBHOOK_ALLOW_PRIVATE=true.',
    version: '1.0.0',
    configSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'secret'],
      properties: {
        url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000 },
        secret: { type: 'string', minLength: 16, maxLength: 500 },
        events: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { enum: [...PLUGIN_EVENT_TYPES] },
        },
      },
    },
    secretFields: ['secret'],
    hooks: {
      async after_delivery({ config, signal, now }, { event }) {
        if (config.events && !config.events.includes(event.type)) return { skipped: event.type };
        const deliveryId = randomUUID();
        const body = JSON.stringify({
          id: deliveryId,
          type: event.type,
          sentAt: now().toISOString(),
          data: event,
        });
        const headers = {
          'content-type': 'application/json',
          'user-agent': 'assistant-orchestrator webhook',
          [SIGNATURE_HEADER]: signBody(body, config.secret),
          'x-webhook-event': event.type,
          'x-webhook-delivery': deliveryId,
        };
        const failures: string[] = [];
        for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
          const attemptSignal = AbortSignal.any([signal, AbortSignal.timeout(WEBHOOK_ATTEMPT_TIMEOUT_MS)]);
          try {
            const status = await guardedPost(config.url, body, headers, {
              allowPrivate: deps.allowPrivate,
              signal: attemptSignal,
            });
            if (status >= 200 && status < 300) return { deliveryId, status, attempts: attempt };
            failures.push(`HTTP ${status}`);
            if (!retryable(status)) break;
          } catch (error) {
            if (error instanceof PermanentDeliveryError) throw error;
            failures.push(signal.aborted ? 'aborted' : (error as Error).message);
            if (signal.aborted) break;
          }
          const pause = WEBHOOK_BACKOFF_MS[attempt - 1];
          if (attempt < WEBHOOK_ATTEMPTS && pause !== undefined) await sleep(pause, undefined, { signal });
        }
        throw new Error(`webhook delivery ${deliveryId} failed: ${failures.join('; ')}`);
      },
    },
  };
}
