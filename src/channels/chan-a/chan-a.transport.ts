import type { Config } from '../../core/config/config.js';
import { splitMessage } from '../outbound/split-message.js';
import type { ChannelTransport, OutboundMessage, SendOutcome, SendProgress } from '../outbound/transport.js';
import { formatForChanA } from './formatter.js';
import { type GraphClient, OUTSIDE_WINDOW_CODE } from './graph-client.js';
import type { Reengagement } from './reengagement.js';
import type { TokenLifecycle } from './token-lifecycle.js';

/** The platform's limit on a text message body, in characters. */
export const CHANA_TEXT_LIMIT = 4096;

/**
 * Channel A's sending side: formats the reply (formatter.ts), splits it
 * into parts of at most 4,096 characters, and sends each part in order
 * with `POST /{phone-number-id}/messages`, bearing the token read from the
 * key-value store at this very send. A part the platform refuses stops the
 * send: 429, 5xx, throttling codes and network errors ask for a retry
 * (with Retry-After when given), 131047 goes through the re-engagement
 * path, any other refusal is final.
 */
export function createChanATransport(deps: {
  config: Config['chanA'];
  graph: GraphClient;
  tokens: Pick<TokenLifecycle, 'current'>;
  reengagement: Pick<Reengagement, 'reasonAfterWindowClosed'>;
}): ChannelTransport {
  const { config, graph, tokens, reengagement } = deps;

  return {
    channel: 'chanA',
    queue: 'chanA-outbound',
    ratePerMinute: config.rateLimitPerMin,

    configured: () => Boolean(config.phoneNumberId && config.accessToken),

    async send(message: OutboundMessage, progress?: SendProgress): Promise<SendOutcome> {
      const ids: string[] = [];
      const token = await tokens.current();
      if (!token || !config.phoneNumberId) {
        return {
          kind: 'failed',
          reason: 'No channel A access token is stored',
          partsSent: message.partsSent,
          platformMessageIds: ids,
        };
      }
      const parts = splitMessage(formatForChanA(message.content), CHANA_TEXT_LIMIT);
      for (let index = message.partsSent; index < parts.length; index++) {
        const result = await graph.sendMessage(
          { phoneNumberId: config.phoneNumberId, token, to: message.channelUserId },
          { type: 'text', text: { body: parts[index] ?? '', preview_url: false } },
        );
        if (!result.ok) {
          const { failure } = result;
          const done = { partsSent: index, platformMessageIds: ids };
          if (failure.code === OUTSIDE_WINDOW_CODE) {
            const reason = await reengagement.reasonAfterWindowClosed(message.channelUserId, failure.reason);
            return { kind: 'failed', reason, ...done };
          }
          if (failure.retryable) {
            return {
              kind: 'retry',
              reason: failure.reason,
              ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
              ...done,
            };
          }
          return { kind: 'failed', reason: failure.reason, ...done };
        }
        await progress?.accepted(result.value.id);
        ids.push(result.value.id);
      }
      return { kind: 'sent', platformMessageIds: ids };
    },
  };
}
