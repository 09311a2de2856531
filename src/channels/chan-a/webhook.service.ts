import { createHash } from 'node:crypto';
import { ForbiddenError, ServiceUnavailableError, UnauthorizedError } from '../../core/errors/app-errors.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import { isValidSignature, secretsEqual } from './signature.js';
import { type InboundItem, parseWebhook, type StatusItem } from './webhook-payload.js';

/** Job names on `chanA-inbound`. */
export const INBOUND_JOB = { message: 'message', status: 'status' } as const;

/** Tries of an inbound message job: media downloads and the database get a few chances. */
export const MESSAGE_ATTEMPTS = 5;
/**
 * Tries of a receipt job: a receipt can overtake the commit of the send that
 * it is about, so it waits for the message a few times before giving up.
 */
export const STATUS_ATTEMPTS = 6;

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40);

/** The job id of an inbound message: one job per platform message id, never with ':' or all digits. */
export const messageJobId = (platformMessageId: string) => `in-${hashOf(platformMessageId)}`;

/** The job id of a receipt: one per (message part, status), so a repeated callback is one job. */
export const statusJobId = (platformMessageId: string, status: string) =>
  `st-${hashOf(`${platformMessageId}|${status}`)}`;

export interface WebhookLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface WebhookServiceDeps {
  queue: QueueDriver;
  /** CHANA_APP_SECRET: when set, every POST must carry its signature. */
  appSecret: string | null;
  /** CHANA_WEBHOOK_VERIFY_TOKEN: the handshake's shared token; unset refuses every handshake. */
  verifyToken: string | null;
  /** CHANA_PHONE_NUMBER_ID: changes addressed to another business number are skipped. */
  phoneNumberId: string | null;
}

/** The transport side of the channel A webhook: checks, reads and enqueues; nothing is processed here. */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { queue, appSecret, verifyToken, phoneNumberId } = deps;

  async function enqueue(messages: InboundItem[], statuses: StatusItem[]): Promise<void> {
    await Promise.all([
      ...messages.map((item) =>
        queue.add('chanA-inbound', INBOUND_JOB.message, item, {
          jobId: messageJobId(item.id),
          attempts: MESSAGE_ATTEMPTS,
        }),
      ),
      ...statuses.map((item) =>
        queue.add('chanA-inbound', INBOUND_JOB.status, item, {
          jobId: statusJobId(item.id, item.status),
          attempts: STATUS_ATTEMPTS,
          backoffMs: 2000,
        }),
      ),
    ]);
  }

  return {
    /**
     * The platform's verification handshake: answers the challenge when the
     * mode is `subscribe` and the token matches CHANA_WEBHOOK_VERIFY_TOKEN
     * (compared in constant time).
     * @throws ForbiddenError for another mode, a wrong token, or no token configured.
     */
    verifyHandshake(query: { mode?: string; token?: string; challenge?: string }): string {
      const ok =
        verifyToken !== null &&
        query.mode === 'subscribe' &&
        typeof query.token === 'string' &&
        secretsEqual(query.token, verifyToken);
      if (!ok || query.challenge === undefined) {
        throw new ForbiddenError('The webhook verification token does not match');
      }
      return query.challenge;
    },

    /**
     * One webhook POST: checks the signature over the raw bytes (when
     * CHANA_APP_SECRET is set), reads the payload and enqueues each message
     * and each receipt on `chanA-inbound` under a deterministic job id, so a
     * repeated delivery is one job. A body that is not JSON or not a
     * webhook payload is logged and acknowledged: the platform would
     * otherwise repeat it forever.
     * @throws UnauthorizedError for a missing or wrong signature (nothing is enqueued).
     * @throws ServiceUnavailableError when the queue cannot take the jobs (the platform retries).
     */
    async receive(
      rawBody: Buffer,
      signature: string | undefined,
      log: WebhookLogger,
    ): Promise<{ messages: number; statuses: number }> {
      if (appSecret !== null && !isValidSignature(rawBody, signature, appSecret)) {
        throw new UnauthorizedError('The X-Hub-Signature-256 header is missing or does not match the body');
      }
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        log.warn({ bytes: rawBody.length }, 'chanA webhook: the body is not JSON; acknowledged and dropped');
        return { messages: 0, statuses: 0 };
      }
      const { messages, statuses, skipped } = parseWebhook(body, phoneNumberId);
      if (skipped.length > 0) {
        log.warn({ skipped: skipped.slice(0, 20) }, 'chanA webhook: parts of the payload were skipped');
      }
      try {
        await enqueue(messages, statuses);
      } catch (error) {
        log.warn({ err: error }, 'chanA webhook: the queue did not take the jobs');
        throw new ServiceUnavailableError('The webhook could not be queued; try again later');
      }
      return { messages: messages.length, statuses: statuses.length };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
