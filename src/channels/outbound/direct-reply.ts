import type { KeyValue } from '../../core/kv/kv.js';
import type { TokenBucket } from './token-bucket.js';
import type { ChannelTransport } from './transport.js';

/** How long what a direct reply answered is kept: longer than an inbound job retries. */
const REPLY_STATE_TTL_MS = 24 * 60 * 60_000;
const SENT = 'sent';

export type DirectReplyOutcome = 'sent' | 'duplicate' | 'limited' | 'failed';

/**
 * Replies that belong to no conversation (link confirmations, how-to-link
 * instructions to an unknown sender): sent by the channel's transport at
 * once, under the recipient's token bucket of the outbound queue, since no
 * message row exists for the outbound worker to load. Approved replies
 * never come this way, so "a reply approved is delivered once" is the
 * outbound worker's, untouched.
 *
 * One reply per inbound message (`key`, the platform's message id): the
 * text is composed once and kept in the key-value store before it is sent,
 * so a retried job sends the same text again (composing may have had an
 * effect, such as using a link code) and a job replayed after the send
 * sends nothing. Over the recipient's rate limit the reply is dropped (an
 * unknown sender writing fast is not owed every answer); a refusal for good
 * is logged; a passing failure (429, 5xx, network) throws, so the job retries.
 */
export function createDirectReplies(deps: {
  kv: KeyValue;
  transport: ChannelTransport;
  bucket: TokenBucket;
  logger: { info(object: object, message?: string): void; warn(object: object, message?: string): void };
}) {
  const { kv, transport, bucket, logger } = deps;
  return {
    async send(key: string, recipient: string, compose: () => Promise<string>): Promise<DirectReplyOutcome> {
      const stateKey = `${transport.channel}:direct-reply:${key}`;
      const stored = await kv.get(stateKey);
      if (stored === SENT) return 'duplicate';
      let text = stored?.startsWith('text:') ? stored.slice(5) : null;
      if (text === null) {
        text = await compose();
        await kv.set(stateKey, `text:${text}`, REPLY_STATE_TTL_MS);
      }
      const done = async (outcome: DirectReplyOutcome) => {
        await kv.set(stateKey, SENT, REPLY_STATE_TTL_MS);
        return outcome;
      };
      if (!transport.configured()) {
        logger.warn({ channel: transport.channel }, 'direct reply: the channel is not configured; not sent');
        return done('failed');
      }
      const token = await bucket.take(recipient);
      if (!token.allowed) {
        logger.info(
          { channel: transport.channel, key },
          'direct reply: over the recipient’s rate limit; dropped',
        );
        return done('limited');
      }
      const outcome = await transport.send({
        id: key,
        conversationId: '',
        departmentId: '',
        channelUserId: recipient,
        content: text,
        language: 'en',
        partsSent: 0,
      });
      if (outcome.kind === 'retry') throw new Error(`direct reply: ${outcome.reason}`);
      if (outcome.kind === 'failed') {
        logger.warn({ channel: transport.channel, key, reason: outcome.reason }, 'direct reply: refused');
        return done('failed');
      }
      return done('sent');
    },
  };
}

export type DirectReplies = ReturnType<typeof createDirectReplies>;
