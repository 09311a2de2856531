import { and, count, desc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { notifications, users } from '../../core/db/schema/index.js';
import { uuidArray } from '../../core/db/sql-helpers.js';
import {
  type LocalisedNotification,
  type NotificationText,
  renderForRecipients,
} from './notification-texts.js';

/**
 * The only file that writes `notifications` (a test checks it): the
 * repository's methods, and the parts of the pipeline's one-statement
 * writes that notify ({@link approvalNotifiedCte}, {@link replyNoticeCte}).
 */

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

/** One user's row: every query names both the id and the owner. */
const owned = (id: string, userId: string) => and(eq(notifications.id, id), eq(notifications.userId, userId));

/**
 * The title and body (SQL expressions) of `text` in the language the SQL
 * expression `language` holds, English for null: so each recipient's row is
 * written in their language by the statement that writes it.
 */
function inLanguage(text: NotificationText, language: SQL): { title: SQL; body: SQL } {
  const [en, uk, ru] = [text('en'), text('uk'), text('ru')];
  const pick = (field: 'title' | 'body') =>
    sql`CASE ${language} WHEN 'uk' THEN ${uk[field]}::text WHEN 'ru' THEN ${ru[field]}::text ELSE ${en[field]}::text END`;
  return { title: pick('title'), body: pick('body') };
}

/**
 * The CTE `notified`: an `approval_pending` notification about the approval
 * the CTE `approval` wrote, for each of `recipients`, in their language.
 */
export function approvalNotifiedCte(recipients: readonly string[], notice: NotificationText): SQL {
  const text = inLanguage(notice, sql`u.language`);
  return sql`notified AS (
      INSERT INTO notifications (user_id, type, title, body, entity_type, entity_id)
      SELECT r.user_id, 'approval_pending', ${text.title}, ${text.body}, 'approval', approval.id::text
      FROM approval, unnest(${uuidArray(recipients)}) AS r(user_id) LEFT JOIN users u ON u.id = r.user_id
      RETURNING *
    )`;
}

/**
 * The CTE `notified`: the employee's `assistant_reply` notification about
 * the message the CTE `reply` wrote, in their language; none without a
 * notice (the CTE stays, writing nothing, so the statement's shape does).
 */
export function replyNoticeCte(notice: { userId: string; text: NotificationText } | null): SQL {
  const text = notice
    ? inLanguage(notice.text, sql`(SELECT language FROM users WHERE id = ${notice.userId}::uuid)`)
    : { title: sql`''`, body: sql`''` };
  return sql`notified AS (
      INSERT INTO notifications (user_id, type, title, body, entity_type, entity_id)
      SELECT ${notice?.userId ?? null}::uuid, 'assistant_reply', ${text.title}, ${text.body}, 'message', reply.id::text
      FROM reply
      WHERE ${notice !== null}::boolean
      RETURNING *
    )`;
}

/** Notification rows. Every read and write of a single row is keyed by (id, userId). */
export function createNotificationsRepository(db: Database) {
  return {
    /** The user's rows, newest first, with the total matching the filter. */
    async list(
      userId: string,
      filters: { unreadOnly: boolean },
      page: { limit: number; offset: number },
      tx: DbExecutor = db,
    ): Promise<{ rows: NotificationRow[]; total: number }> {
      const where = and(
        eq(notifications.userId, userId),
        filters.unreadOnly ? isNull(notifications.readAt) : undefined,
      );
      const rows = await tx
        .select()
        .from(notifications)
        .where(where)
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(page.limit)
        .offset(page.offset);
      const [counted] = await tx.select({ total: count() }).from(notifications).where(where);
      return { rows, total: counted?.total ?? 0 };
    },

    async countUnread(userId: string, tx: DbExecutor = db): Promise<number> {
      const [counted] = await tx
        .select({ total: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return counted?.total ?? 0;
    },

    async find(id: string, userId: string, tx: DbExecutor = db): Promise<NotificationRow | null> {
      const [row] = await tx.select().from(notifications).where(owned(id, userId)).limit(1);
      return row ?? null;
    },

    /** Sets readAt to the database's clock on an unread row; null when the row is read already or not the user's. */
    async markRead(id: string, userId: string, tx: DbExecutor = db): Promise<NotificationRow | null> {
      const [row] = await tx
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(and(owned(id, userId), isNull(notifications.readAt)))
        .returning();
      return row ?? null;
    },

    /** Marks every unread row of the user read; answers how many changed. */
    async markAllRead(userId: string, tx: DbExecutor = db): Promise<number> {
      const rows = await tx
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
        .returning({ id: notifications.id });
      return rows.length;
    },

    /** Deletes the user's row; false when there is no such row of that user. */
    async delete(id: string, userId: string, tx: DbExecutor = db): Promise<boolean> {
      const rows = await tx
        .delete(notifications)
        .where(owned(id, userId))
        .returning({ id: notifications.id });
      return rows.length > 0;
    },

    /**
     * Writes the rows, each title and body in its recipient's language
     * (English when none is set), the languages read in `tx` with one statement.
     */
    async insertLocalised(
      rows: readonly LocalisedNotification[],
      tx: DbExecutor,
    ): Promise<NotificationRow[]> {
      if (rows.length === 0) return [];
      const recipients = [...new Set(rows.map((row) => row.userId))];
      const languages = await tx
        .select({ id: users.id, language: users.language })
        .from(users)
        .where(inArray(users.id, recipients));
      const byUser = new Map(languages.map((row) => [row.id, row.language]));
      return tx.insert(notifications).values(renderForRecipients(rows, byUser)).returning();
    },

    /** Gives user `from`'s notifications to user `to` (a placeholder merged into its real user). */
    async reassignUser(from: string, to: string, tx: DbExecutor): Promise<void> {
      await tx.update(notifications).set({ userId: to }).where(eq(notifications.userId, from));
    },

    /** Deletes read rows whose readAt is before `cutoff`; unread rows are never touched. Answers how many. */
    async deleteReadBefore(cutoff: Date, tx: DbExecutor = db): Promise<number> {
      const rows = await tx
        .delete(notifications)
        .where(and(isNotNull(notifications.readAt), lt(notifications.readAt, cutoff)))
        .returning({ id: notifications.id });
      return rows.length;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
