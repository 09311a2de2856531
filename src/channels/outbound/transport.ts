import type { QueueName } from '../../core/queue/queue.js';

/** An outbound message as a transport sends it: everything it needs, nothing from the database. */
export interface OutboundMessage {
  /** Our message id (messages.id). */
  id: string;
  conversationId: string;
  departmentId: string;
  /** The recipient as the platform knows them: channel A phone digits, channel B chat id. */
  channelUserId: string;
  /** The reply as the pipeline wrote it (Markdown). */
  content: string;
  /** en, uk or ru: the language of the conversation, for system texts. */
  language: string;
  /**
   * Parts of this message already accepted by the platform in an earlier
   * try: a retry resumes after them, so no part is sent twice.
   */
  partsSent: number;
  /**
   * An assistant reply sent without review (a task's, no approval): employees may rate it,
   * so a transport that can offers rating buttons with it (channel B).
   */
  rateable?: boolean;
}

/**
 * How a transport reports progress while it sends: it calls `accepted` with
 * the platform's id of each part right after the platform accepted it and
 * before it sends the next, and the worker records it at once (so a crash
 * between two parts resumes after the last recorded one). Optional to use:
 * ids only returned in the outcome are recorded when `send` returns.
 */
export interface SendProgress {
  accepted(platformMessageId: string): Promise<void>;
}

/**
 * What one send attempt came to. `platformMessageIds` are the ids of the
 * parts accepted in this attempt, in order (earlier attempts' ids are
 * already recorded on the message).
 */
export type SendOutcome =
  /** Every part accepted, in order; `platformMessageIds` one per part sent in this attempt. */
  | { kind: 'sent'; platformMessageIds: string[] }
  /**
   * Worth another try (429, 5xx, a network error): `retryAfterMs` when the
   * platform said how long to wait. `partsSent` counts the parts accepted so
   * far, including earlier tries.
   */
  | { kind: 'retry'; reason: string; retryAfterMs?: number; partsSent: number; platformMessageIds: string[] }
  /** Refused for good (a 4xx that repeating cannot fix): the message is marked failed with `reason`. */
  | { kind: 'failed'; reason: string; partsSent: number; platformMessageIds: string[] };

/**
 * One messaging platform's sending side. The shared outbound worker
 * (`outbound-worker.ts`) loads the message, applies the per-sender token
 * bucket, calls `send`, and records the outcome; a transport only formats,
 * splits and talks to its platform.
 */
export interface ChannelTransport {
  readonly channel: 'chanA' | 'chanB';
  /** Its outbound queue. */
  readonly queue: Extract<QueueName, 'chanA-outbound' | 'chanB-outbound'>;
  /** Messages per minute per recipient (CHANA_RATE_LIMIT_PER_MIN / CHANB_RATE_LIMIT_PER_MIN). */
  readonly ratePerMinute: number;
  /** False when the channel has no credentials: the message is marked failed with a reason that says so. */
  configured(): boolean;
  send(message: OutboundMessage, progress?: SendProgress): Promise<SendOutcome>;
}
