import type { Database, Transaction } from '../../core/db/client.js';
import type { DriverLogger } from '../../core/logger.js';
import { notificationTexts } from '../../modules/notifications/notification-texts.js';
import type { NotificationsPort } from '../../modules/notifications/notifications.service.js';
import type { OutboundMessageRow, OutboundRepository } from './outbound.repository.js';

const SNIPPET = 160;

/**
 * A message that could not be delivered for good: marked `failed` with the
 * platform's reason, and every approver of the conversation's department
 * (the pipeline's own approver rule) told with a `system` notification,
 * written in the same transaction and pushed to their sockets after it
 * commits (the notifications service's producer path).
 */
export function createDeliveryFailures(deps: {
  db: Database;
  repository: OutboundRepository;
  approversOf: (departmentId: string, tx: Transaction) => Promise<string[]>;
  notifications: NotificationsPort;
  logger: DriverLogger;
}) {
  const { db, repository, approversOf, notifications } = deps;

  return {
    /**
     * Marks `messageId` failed with `reason` while its status is one of
     * `from` (default: still `queued`) and notifies the approvers; answers
     * the row, or null when the message was in another state (then nothing
     * is changed or notified, so a repeat is harmless).
     */
    async fail(
      messageId: string,
      reason: string,
      options: { from?: readonly string[]; note?: Record<string, unknown> } = {},
    ): Promise<OutboundMessageRow | null> {
      const done = await db.transaction(async (tx) => {
        const record = await repository.load(messageId, tx);
        if (!record) return null;
        const row = await repository.markFailed(
          messageId,
          { reason, at: new Date(), from: options.from ?? ['queued'], note: options.note },
          tx,
        );
        if (!row) return null;
        const recipients = await approversOf(record.conversation.departmentId, tx);
        const pending = await notifications.notify(
          recipients,
          {
            type: 'system',
            text: notificationTexts.replyUndelivered(
              record.conversation.channel,
              reason,
              snippet(row.content),
            ),
            entityType: 'message',
            entityId: row.id,
          },
          tx,
        );
        return { row, pending };
      });
      if (!done) return null;
      await notifications
        .publish(done.pending)
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, messageId }, 'delivery: pushing the failure notification failed'),
        );
      return done.row;
    },
  };
}

export type DeliveryFailures = ReturnType<typeof createDeliveryFailures>;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET - 1)}…` : flat;
}
