import type { Actor } from '../../core/auth/actor.js';
import type { Bus } from '../../core/bus/bus.js';
import type { DbExecutor } from '../../core/db/client.js';
import { NotFoundError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import { type NotificationPayload, publishEvent } from '../../core/realtime/events.js';
import type { NotificationText } from './notification-texts.js';
import type { NotificationRow, NotificationsRepository } from './notifications.repository.js';

/** Read notifications are deleted this long after they were read; unread ones are kept. */
export const NOTIFICATION_RETENTION_DAYS = 90;

/**
 * What a producer notifies about. `type` is free text: approval_pending,
 * mention, document_ready, system, … `text` is the title and body in every
 * language (see notification-texts.ts); each row gets its recipient's.
 */
export interface NotificationInput {
  type: string;
  text: NotificationText;
  entityType?: string | null;
  entityId?: string | null;
}

/**
 * Rows written inside a producer's transaction, waiting for the commit:
 * hand them to {@link NotificationsService.publish} once it has committed.
 */
export type PendingNotifications = readonly NotificationRow[];

/** A row as the API and the socket carry it (timestamps in ISO 8601). */
export function toNotification(row: NotificationRow): NotificationPayload {
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    title: row.title,
    body: row.body,
    entityType: row.entityType,
    entityId: row.entityId,
    readAt: iso(row.readAt),
    createdAt: iso(row.createdAt),
  };
}

export function createNotificationsService(deps: { notifications: NotificationsRepository; bus: Bus }) {
  const { notifications, bus } = deps;

  /** The caller's row, or 404 naming the id: another user's row reads as missing. */
  async function ownRow(actor: Actor, id: string): Promise<NotificationRow> {
    const row = await notifications.find(id, actor.userId);
    if (!row) throw new NotFoundError(`Notification ${id} not found`);
    return row;
  }

  return {
    /**
     * The caller's inbox, newest first, with the number of unread rows
     * (over the whole inbox, whatever the filter and page).
     */
    async list(actor: Actor, query: { unreadOnly?: boolean; limit?: number; offset?: number }) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await notifications.list(
        actor.userId,
        { unreadOnly: query.unreadOnly ?? false },
        { limit, offset },
      );
      const unreadCount = await notifications.countUnread(actor.userId);
      return { items: rows.map(toNotification), pagination: { total, limit, offset }, unreadCount };
    },

    /**
     * Marks one of the caller's notifications read. Idempotent: a row read
     * before is answered unchanged (its first readAt stays).
     * @throws NotFoundError when the caller has no such notification.
     */
    async markRead(actor: Actor, id: string) {
      const updated = await notifications.markRead(id, actor.userId);
      return toNotification(updated ?? (await ownRow(actor, id)));
    },

    /** Marks every unread notification of the caller read; answers how many changed. */
    async markAllRead(actor: Actor) {
      return { updated: await notifications.markAllRead(actor.userId) };
    },

    /**
     * Deletes one of the caller's notifications.
     * @throws NotFoundError when the caller has no such notification.
     */
    async remove(actor: Actor, id: string): Promise<void> {
      if (!(await notifications.delete(id, actor.userId))) {
        throw new NotFoundError(`Notification ${id} not found`);
      }
    },

    /**
     * The one way producers notify: writes a row per recipient inside the
     * producer's transaction `tx` (repeated ids get one row), its title and
     * body in the recipient's language (English when none is set; the
     * languages are read in `tx` with one statement), and answers the rows,
     * which the producer hands to {@link publish} after the commit, so that
     * nothing is pushed for a rolled-back change.
     */
    async notify(
      userIds: readonly string[],
      input: NotificationInput,
      tx: DbExecutor,
    ): Promise<PendingNotifications> {
      const recipients = [...new Set(userIds)];
      if (recipients.length === 0) return [];
      const rows = recipients.map((userId) => ({
        userId,
        type: input.type,
        text: input.text,
        entityType: input.entityType ?? null,
        entityId: input.entityId ?? null,
      }));
      return notifications.insertLocalised(rows, tx);
    },

    /**
     * After the commit: publishes `notification.created` for each row on the
     * bus, which every API replica forwards to the owner's sockets. A failed
     * publish loses only the live push; the row is the durable record.
     */
    async publish(rows: PendingNotifications): Promise<void> {
      for (const row of rows) await publishEvent(bus, 'notification.created', toNotification(row));
    },

    /** Deletes read notifications read more than the retention period before `now`; answers how many. */
    purgeRead(now = new Date()): Promise<number> {
      const cutoff = new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * 86_400_000);
      return notifications.deleteReadBefore(cutoff);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;

/** What a producer module needs from notifications (container.ts passes the service). */
export type NotificationsPort = Pick<NotificationsService, 'notify' | 'publish'>;
