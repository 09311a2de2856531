import { randomUUID } from 'node:crypto';
import type { KeyValue } from '../../core/kv/kv.js';
import { guessLanguage } from '../../core/llm/extractive-responder.js';
import type { DriverLogger } from '../../core/logger.js';
import type { Job, QueueDriver } from '../../core/queue/queue.js';
import type { DeliveryFailures } from './delivery-failures.js';
import type { OutboundRecord, OutboundRepository } from './outbound.repository.js';
import type { TokenBucket } from './token-bucket.js';
import type { ChannelTransport, OutboundMessage, SendOutcome } from './transport.js';

/** Payload of an outbound job: the message, and how often it was already put back (rate limit, retry). */
export interface OutboundJobData {
  messageId: string;
  /** Times the message waited for its recipient's rate limit or for another job of it to finish. */
  delays?: number;
  /** Times the platform answered "try again" (429, 5xx, network error). */
  retries?: number;
  /** Times the message waited for an earlier reply of its conversation to go out first. */
  held?: number;
}

/** How the worker retries a platform's "try again". */
export interface RetryPolicy {
  /** Retries after the first try before the message is failed (default 8). */
  maxRetries: number;
  /** First backoff when the platform gave no Retry-After; doubles each retry (default 2 s). */
  baseDelayMs: number;
  /** Longest backoff (default 10 minutes). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 8, baseDelayMs: 2000, maxDelayMs: 10 * 60_000 };

/**
 * A lease on one message while a job sends it, renewed every
 * {@link SEND_LEASE_RENEW_MS} as long as the job runs: a job whose process
 * died lets go within seconds, so the message's next job can send it.
 */
export const SEND_LEASE_MS = 10_000;
const SEND_LEASE_RENEW_MS = 3000;
/** How often a reply looks again whether its conversation's earlier reply went out. */
const HELD_RECHECK_MS = 200;
/**
 * How many looks a reply waits behind an earlier one (30 s): long enough for
 * an earlier reply whose process died to be taken again (its lease lapses
 * within 10 s), short enough that one stuck reply never holds a conversation.
 */
const MAX_HELD = 150;

export type OutboundResult = 'sent' | 'failed' | 'delayed' | 'held' | 'retrying' | 'skipped' | 'missing';

/** What every channel's worker shares; container.ts builds it once. */
export interface OutboundDeps {
  queue: QueueDriver;
  kv: KeyValue;
  repository: OutboundRepository;
  failures: DeliveryFailures;
  logger: DriverLogger;
  /**
   * Told of each outbound job's outcome by channel: an {@link OutboundResult},
   * or `error` when the job threw (it is retried, then fails the message).
   */
  observeDelivery?: (channel: string, outcome: OutboundResult | 'error') => void;
}

/**
 * The outbound worker shared by both channels: consumes the transport's
 * queue (`{ messageId }` jobs, id `outbound-<messageId>`), and for each
 * message still `queued`:
 *
 * 1. takes a per-message lock in the key-value store, so two jobs of one
 *    message (a replay beside a delayed re-add) never send at once;
 * 2. waits (put back, `outbound-<messageId>-h<n>`, for up to 30 s) while
 *    a reply of the same conversation written before it is still unsent, so
 *    replies go out in the order of the messages they answer; a reply
 *    deferred on purpose (rate limit, retry) holds nobody up
 *    (`metadata.deferredUntil`);
 * 3. takes a token from the recipient's bucket; without one the message is
 *    put back as a delayed job (`outbound-<messageId>-d<n>`), never dropped,
 *    and the worker goes on with other recipients (concurrency > 1);
 * 4. lets the transport format, split and send, recording each accepted
 *    part at once (`metadata.partsSent`, `metadata.platformMessageIds`,
 *    `channel_message_id` = the last part's id), so a retry resumes after it;
 * 5. on success marks it `sent` and records the channel's last outbound time
 *    (`<channel>:last-outbound-at`); on "try again" (429, 5xx, network) puts
 *    it back delayed (`outbound-<messageId>-r<n>`) after Retry-After, or an
 *    exponential backoff when the platform gave none; when the retries run
 *    out, or the platform refused for good, marks it `failed` with the
 *    reason and notifies the department's approvers.
 *
 * A message not `queued` (sent, failed) is left alone, so a replayed job is
 * a no-op and an approved reply goes out once. Each attempt is recorded
 * (`metadata.sendAttempt`) before the platform is called and closed when
 * the platform answers. The one window left: a part the platform accepted
 * whose id was not yet recorded when the process died is sent again by the
 * next attempt (at-least-once for that single part), which finds the
 * attempt still open and logs the resend as a possible duplicate.
 */
export function createOutboundWorker(
  deps: OutboundDeps & {
    transport: ChannelTransport;
    bucket: TokenBucket;
    /** Jobs run at once in this process (default 4): one slow or limited recipient never holds up the rest. */
    concurrency?: number;
    retry?: Partial<RetryPolicy>;
  },
) {
  const { queue, kv, repository, failures, logger, transport, bucket } = deps;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...deps.retry };

  async function putBack(data: OutboundJobData, kind: 'd' | 'r' | 'h', delayMs: number): Promise<void> {
    const n =
      kind === 'd' ? (data.delays ?? 0) + 1 : kind === 'r' ? (data.retries ?? 0) + 1 : (data.held ?? 0) + 1;
    const next: OutboundJobData = {
      messageId: data.messageId,
      delays: kind === 'd' ? n : (data.delays ?? 0),
      retries: kind === 'r' ? n : (data.retries ?? 0),
      held: kind === 'h' ? n : (data.held ?? 0),
    };
    await queue.add(transport.queue, 'send', next, {
      jobId: `outbound-${data.messageId}-${kind}${n}`,
      delayMs: Math.max(1, Math.ceil(delayMs)),
    });
  }

  async function send(record: OutboundRecord): Promise<SendOutcome> {
    const { message, conversation } = record;
    const metadata = message.metadata ?? {};
    let partsSent = typeof metadata.partsSent === 'number' ? metadata.partsSent : 0;
    const recordedNow: string[] = [];
    const outbound: OutboundMessage = {
      id: message.id,
      conversationId: conversation.id,
      departmentId: conversation.departmentId,
      channelUserId: conversation.channelUserId ?? '',
      content: message.content,
      // The reply is written in the conversation's language, so it tells the language.
      language: guessLanguage(message.content),
      partsSent,
      rateable: message.taskId !== null && message.approvalId === null,
    };
    const accepted = async (platformMessageId: string) => {
      await repository.recordPart(message.id, partsSent, platformMessageId);
      partsSent += 1;
      recordedNow.push(platformMessageId);
    };
    const outcome = await transport.send(outbound, { accepted });
    // Ids a transport only returned (it did not report them part by part) are recorded now.
    for (const id of outcome.platformMessageIds.slice(recordedNow.length)) await accepted(id);
    return outcome;
  }

  async function handle(job: Job<OutboundJobData>): Promise<OutboundResult> {
    const { messageId } = job.data;
    const lockKey = `${transport.channel}:send-lock:${messageId}`;
    const lock = randomUUID();
    if (!(await kv.setIfAbsent(lockKey, lock, SEND_LEASE_MS))) {
      // Another job of this message is sending it: look again once it is done.
      await putBack(job.data, 'd', 5000);
      return 'delayed';
    }
    const renewal = setInterval(() => {
      kv.extendIfEquals(lockKey, lock, SEND_LEASE_MS).catch((error: unknown) =>
        logger.warn({ err: error, messageId }, 'delivery: renewing the send lease failed'),
      );
    }, SEND_LEASE_RENEW_MS);
    renewal.unref();
    try {
      const record = await repository.load(messageId);
      if (!record) {
        logger.warn({ messageId, queue: transport.queue }, 'delivery: no such outbound message');
        return 'missing';
      }
      if (record.message.status !== 'queued') return 'skipped';
      // Replies of one conversation go out in the order they were written (the order of the
      // messages they answer); one left behind by a process that died is sent again first.
      if (record.earlierUnsent && (job.data.held ?? 0) < MAX_HELD) {
        await putBack(job.data, 'h', HELD_RECHECK_MS);
        return 'held';
      }
      if (!transport.configured()) {
        await failures.fail(messageId, `${transport.channel} is not configured: no credentials to send with`);
        return 'failed';
      }
      const recipient = record.conversation.channelUserId;
      if (!recipient) {
        await failures.fail(messageId, 'The conversation has no channel recipient');
        return 'failed';
      }
      const token = await bucket.take(recipient);
      if (!token.allowed) {
        await repository.defer(messageId, new Date(Date.now() + token.retryInMs));
        await putBack(job.data, 'd', token.retryInMs);
        return 'delayed';
      }

      const previous = record.message.metadata?.sendAttempt as { n?: number; open?: boolean } | undefined;
      if (previous?.open) {
        logger.warn(
          { messageId, queue: transport.queue, attempt: previous.n },
          'delivery: possible duplicate: an earlier attempt ended without a record (its process stopped); the part it was sending may reach the recipient twice',
        );
      }
      await repository.openAttempt(messageId, (previous?.n ?? 0) + 1, new Date());
      const outcome = await send(record);
      if (outcome.kind === 'sent') {
        const at = new Date();
        await repository.markSent(messageId, at);
        await kv.set(`${transport.channel}:last-outbound-at`, at.toISOString());
        return 'sent';
      }
      if (outcome.kind === 'failed') {
        await failures.fail(messageId, outcome.reason);
        return 'failed';
      }
      // The platform answered "not now": it took nothing, so the next attempt repeats nothing.
      await repository.closeAttempt(messageId);
      const retries = job.data.retries ?? 0;
      if (retries >= retry.maxRetries) {
        await failures.fail(messageId, `${outcome.reason} (gave up after ${retries + 1} tries)`);
        return 'failed';
      }
      const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** retries);
      const delayMs = outcome.retryAfterMs ?? backoff;
      await repository.defer(messageId, new Date(Date.now() + delayMs));
      await putBack(job.data, 'r', delayMs);
      logger.warn(
        { messageId, queue: transport.queue, reason: outcome.reason, retry: retries + 1 },
        'delivery: the platform asked to try again later',
      );
      return 'retrying';
    } finally {
      clearInterval(renewal);
      await kv.deleteIfEquals(lockKey, lock);
    }
  }

  /** {@link handle}, with its outcome told to the delivery metrics. */
  async function observed(job: Job<OutboundJobData>): Promise<OutboundResult> {
    let result: OutboundResult;
    try {
      result = await handle(job);
    } catch (error) {
      deps.observeDelivery?.(transport.channel, 'error');
      throw error;
    }
    deps.observeDelivery?.(transport.channel, result);
    return result;
  }

  return {
    handle,

    /** Starts consuming the transport's queue in this (worker) process. */
    start(): void {
      queue.process<OutboundJobData>(transport.queue, observed, {
        concurrency: deps.concurrency ?? 4,
        // A job that kept throwing (the database or the store was down) fails the message, as a final failure does.
        onFailed: async (job, error) => {
          await failures
            .fail(job.data.messageId, `Delivery failed: ${error.message}`)
            .catch((failure: unknown) =>
              logger.error(
                { err: failure, messageId: job.data.messageId },
                'delivery: marking a message failed failed',
              ),
            );
        },
      });
    },
  };
}

export type OutboundWorker = ReturnType<typeof createOutboundWorker>;
