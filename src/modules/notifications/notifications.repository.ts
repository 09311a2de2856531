import { and, count, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { notifications, users } from '../../core/db/schema/index.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

/** One user's row: every query names both the id and the owner. */
const owned = (id: string, userId: string) => and(eq(notifications.id, id), eq(notifications.userId, userId));

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

    /** The stored language of each of `userIds` (one statement, in the writer's transaction). */
    async languagesOf(userIds: readonly string[], tx: DbExecutor = db): Promise<Map<string, string | null>> {
      if (userIds.length === 0) return new Map();
      const rows = await tx
        .select({ id: users.id, language: users.language })
        .from(users)
        .where(inArray(users.id, [...userIds]));
      return new Map(rows.map((row) => [row.id, row.language]));
    },

    async insertMany(rows: NewNotification[], tx: DbExecutor = db): Promise<NotificationRow[]> {
      if (rows.length === 0) return [];
      return tx.insert(notifications).values(rows).returning();
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
