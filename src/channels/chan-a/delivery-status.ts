import type { DeliveryStatusRepository } from './delivery-status.repository.js';
import type { ReceiptStatus, StatusItem } from './webhook-payload.js';

/** The platform's error code for a message sent outside the 24-hour customer-service window. */
export const OUTSIDE_WINDOW_ERROR = 131047;

/**
 * From which stored statuses a receipt moves an outbound message. Receipts
 * only move forward (sent → delivered → read), so a late or repeated one
 * changes nothing; a `sent` receipt only records its time. `failed` is
 * final: nothing moves a failed message again, and a `failed` receipt for
 * any part fails the message whatever it reached before (for a message
 * split in parts, one lost part means the employee did not get the whole
 * reply). A message still `queued` is not moved at all: its sender is
 * still sending parts (see {@link ReceiptOutcome} `pending`).
 */
export const RECEIPT_MOVES_FROM: Record<ReceiptStatus, readonly string[]> = {
  sent: ['sent'],
  delivered: ['sent'],
  read: ['sent', 'delivered'],
  failed: ['sent', 'delivered', 'read'],
};

/** What applying one receipt did. */
export type ReceiptOutcome =
  /** No outbound message has this platform id (yet: the send may not have committed). */
  | 'unknown'
  /**
   * The message is still `queued`: an earlier part was accepted while the
   * sender sends the rest (or waits to retry them). Moving it now would
   * take it from under the sender, so the receipt waits.
   */
  | 'pending'
  | 'applied'
  /** The message is at or past this state already (a repeat, or a receipt that arrived late). */
  | 'unchanged';

export interface ReceiptLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface DeliveryStatusDeps {
  repository: DeliveryStatusRepository;
  logger: ReceiptLogger;
  /**
   * Called once when a message failed because the employee's 24-hour window
   * had closed (error 131047): the sending side's re-engagement path.
   */
  onOutsideWindow?: (messageId: string, platformReason: string) => Promise<unknown>;
}

/** When the receipt says the state was reached (its Unix seconds), else now. */
function receiptTime(item: StatusItem): string {
  const seconds = item.timestamp && /^\d{1,12}$/.test(item.timestamp) ? Number(item.timestamp) : null;
  return (seconds ? new Date(seconds * 1000) : new Date()).toISOString();
}

/** The platform's error of a `failed` receipt as `metadata.deliveryError` keeps it. */
function deliveryErrorOf(item: StatusItem, at: string): Record<string, unknown> {
  const [first] = item.errors;
  return {
    platformMessageId: item.id,
    code: first?.code ?? null,
    title: first?.title ?? null,
    message: first?.message ?? null,
    details: first?.details ?? null,
    at,
  };
}

/** The failure in one line, as `metadata.failureReason` (the sending side's field) reads. */
function reasonOf(item: StatusItem): string {
  const [first] = item.errors;
  if (!first) return 'The platform reports the message as failed';
  const text = [first.title, first.details]
    .filter((part, i, all) => part && all.indexOf(part) === i)
    .join(': ');
  return `The platform reports the message as failed${first.code !== null ? ` (code ${first.code})` : ''}${text ? `: ${text}` : ''}`;
}

/** Receipts (status callbacks) of channel A messages → the outbound message's status. */
export function createDeliveryStatuses(deps: DeliveryStatusDeps) {
  const { repository, logger } = deps;

  /** A 131047 failure goes to the re-engagement path, which records its own reason. */
  async function handOver(messageId: string, item: StatusItem): Promise<void> {
    if (!deps.onOutsideWindow) {
      logger.warn({ messageId }, 'chanA: outside the 24-hour window and no re-engagement path');
      return;
    }
    // The status is recorded already, so a retry of this receipt would not come back here:
    // a failing hand-over is logged rather than retried.
    try {
      await deps.onOutsideWindow(messageId, item.errors[0]?.title ?? 'Message failed to send');
    } catch (error) {
      logger.warn({ err: error, messageId }, 'chanA: the re-engagement hand-over failed');
    }
  }

  return {
    /**
     * Applies one receipt to the outbound message that has a part with its
     * platform id: moves the status forward ({@link RECEIPT_MOVES_FROM}) and
     * records the time of each state under `metadata.receipts`. A `failed`
     * receipt also records the platform's error under
     * `metadata.deliveryError`, and either the reason under
     * `metadata.failureReason` or, for a failure outside the 24-hour window
     * (131047), hands the message to `onOutsideWindow`, once, from the
     * receipt that failed it. Safe to repeat.
     */
    async apply(item: StatusItem): Promise<ReceiptOutcome> {
      const message = await repository.findByPlatformId(item.id);
      if (!message) return 'unknown';
      if (message.status === 'queued') return 'pending';
      const at = receiptTime(item);
      const outsideWindow = item.status === 'failed' && item.errors[0]?.code === OUTSIDE_WINDOW_ERROR;
      const patch =
        item.status !== 'failed'
          ? {}
          : {
              deliveryError: deliveryErrorOf(item, at),
              ...(outsideWindow ? {} : { failureReason: reasonOf(item) }),
            };
      const moved = await repository.moveStatus(
        message.id,
        item.status,
        RECEIPT_MOVES_FROM[item.status],
        { [item.status]: at },
        patch,
      );
      if (!moved) return 'unchanged';
      if (item.status === 'failed') {
        logger.warn(
          { messageId: message.id, code: item.errors[0]?.code ?? null },
          'chanA: the platform reports a message as failed',
        );
        if (outsideWindow) await handOver(message.id, item);
      }
      return 'applied';
    },
  };
}

export type DeliveryStatuses = ReturnType<typeof createDeliveryStatuses>;
