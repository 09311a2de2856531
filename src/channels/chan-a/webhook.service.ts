import { createHash } from 'node:crypto';
import {
  BadRequestError,
  ForbiddenError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../core/errors/app-errors.js';
import type { ChannelInbox, InboxEntry } from '../inbox/inbox.js';
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
  /** Keeps each message and receipt in the database before the POST is answered, and enqueues it after. */
  inbox: Pick<ChannelInbox, 'accept'>;
  /** CHANA_APP_SECRET: every POST must carry its signature; unset refuses every POST (503). */
  appSecret: string | null;
  /** CHANA_ALLOW_UNSIGNED: without a secret, take unsigned POSTs (local testing; refused in production). */
  allowUnsigned: boolean;
  /** CHANA_WEBHOOK_VERIFY_TOKEN: the handshake's shared token; unset refuses every handshake. */
  verifyToken: string | null;
  /** CHANA_PHONE_NUMBER_ID: changes addressed to another business number are skipped. */
  phoneNumberId: string | null;
  /** Told of each POST refused for its signature (the webhook metrics); none when absent. */
  onSignatureRefused?: () => void;
}

/** The platform's Unix seconds as a number, or null when it sent none (the arrival order decides then). */
function platformSeconds(timestamp: string | null): number | null {
  const seconds = Number(timestamp);
  return timestamp !== null && Number.isSafeInteger(seconds) ? seconds : null;
}

/** The transport side of the channel A webhook: checks, reads and enqueues; nothing is processed here. */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { inbox, appSecret, allowUnsigned, verifyToken, phoneNumberId } = deps;

  /** The inbox entries of a payload: one `chanA-inbound` job per message and per receipt. */
  function entriesOf(messages: InboundItem[], statuses: StatusItem[]): InboxEntry[] {
    return [
      ...messages.map((item) => ({
        queue: 'chanA-inbound' as const,
        jobName: INBOUND_JOB.message,
        jobId: messageJobId(item.id),
        sender: item.from,
        platformOrder: platformSeconds(item.timestamp),
        payload: item,
        options: { attempts: MESSAGE_ATTEMPTS },
      })),
      ...statuses.map((item) => ({
        queue: 'chanA-inbound' as const,
        jobName: INBOUND_JOB.status,
        jobId: statusJobId(item.id, item.status),
        sender: null,
        platformOrder: null,
        payload: item,
        options: { attempts: STATUS_ATTEMPTS, backoffMs: 2000 },
      })),
    ];
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
     * One webhook POST: checks the signature over the raw bytes against
     * CHANA_APP_SECRET, reads the payload, keeps each message and each
     * receipt in the inbox (committed before the POST is answered, so an
     * acknowledged message survives a lost queue) and enqueues it on
     * `chanA-inbound` under a deterministic job id, so a repeated delivery
     * is one job. The answer waits for the commit, not for the enqueue: a
     * job the queue did not take is enqueued by the inbox sweep. JSON that
     * is not a webhook payload (or holds nothing to process) is logged and
     * acknowledged: the platform would otherwise repeat it forever.
     * @throws ServiceUnavailableError when CHANA_APP_SECRET is unset and
     *   CHANA_ALLOW_UNSIGNED is not (anyone could post as any sender), or when
     *   the database cannot keep the items (the platform retries).
     * @throws UnauthorizedError for a missing or wrong signature (nothing is enqueued).
     * @throws BadRequestError for a body that is not JSON (nothing is enqueued).
     */
    async receive(
      rawBody: Buffer,
      signature: string | undefined,
      log: WebhookLogger,
    ): Promise<{ messages: number; statuses: number }> {
      if (appSecret === null && !allowUnsigned) {
        throw new ServiceUnavailableError(
          'Channel A webhooks are not taken: CHANA_APP_SECRET is not configured, so no signature can be checked',
        );
      }
      if (appSecret !== null && !isValidSignature(rawBody, signature, appSecret)) {
        deps.onSignatureRefused?.();
        throw new UnauthorizedError('The X-Hub-Signature-256 header is missing or does not match the body');
      }
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new BadRequestError('The webhook body is not valid JSON');
      }
      const { messages, statuses, skipped } = parseWebhook(body, phoneNumberId);
      if (skipped.length > 0) {
        log.warn({ skipped: skipped.slice(0, 20) }, 'chanA webhook: parts of the payload were skipped');
      }
      try {
        // The 200 waits for the commit, not for the queue: a lost add is the sweep's to repeat.
        await inbox.accept(entriesOf(messages, statuses), { waitForQueue: false });
      } catch (error) {
        log.warn({ err: error }, 'chanA webhook: the items could not be kept');
        throw new ServiceUnavailableError('The webhook could not be taken; try again later');
      }
      return { messages: messages.length, statuses: statuses.length };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
