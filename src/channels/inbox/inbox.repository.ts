import { and, asc, eq, inArray, isNotNull, isNull, lt, max, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../core/db/client.js';
import { channelInbox } from '../../core/db/schema/inbox.js';
import type { QueueName } from '../../core/queue/queue.js';

/** One platform item as the inbox keeps it. */
export interface InboxEntry {
  queue: QueueName;
  jobId: string;
  jobName: string;
  /** The platform's sender of a message (channel user id); null for receipts. */
  sender: string | null;
  /** The platform's order of the sender's items (a timestamp, an update id); ties go by arrival. */
  platformOrder: number | null;
  payload: unknown;
  options: { attempts?: number; backoffMs?: number };
}

/** An unsettled entry the sweep looks at. */
export interface PendingEntry extends InboxEntry {
  id: string;
}

/** The channel inbox table's only writer. */
export function createInboxRepository(db: Database) {
  return {
    /**
     * Inserts the entries in one statement, in their order (their `seq`);
     * an entry already kept (a repeated delivery) is left as it is. The rows
     * travel as one JSON parameter, so the statement's text is the same for
     * any number of them (prepared once) and the webhook's hot path builds no
     * query per row.
     */
    async insert(entries: readonly InboxEntry[]): Promise<void> {
      if (entries.length === 0) return;
      const rows = JSON.stringify(
        entries.map((e) => [e.queue, e.jobId, e.jobName, e.sender, e.platformOrder, e.payload, e.options]),
      );
      await db.execute(sql`INSERT INTO ${channelInbox}
          (queue, job_id, job_name, sender, platform_order, payload, options)
        SELECT r.v ->> 0, r.v ->> 1, r.v ->> 2, r.v ->> 3, (r.v ->> 4)::bigint, r.v -> 5, r.v -> 6
        FROM jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS r(v, n)
        ORDER BY r.n
        ON CONFLICT DO NOTHING`);
    },

    /** Unsettled entries received before `before`, oldest first. */
    async pending(before: Date, limit: number): Promise<PendingEntry[]> {
      const rows = await db
        .select({
          id: channelInbox.id,
          queue: channelInbox.queue,
          jobId: channelInbox.jobId,
          jobName: channelInbox.jobName,
          sender: channelInbox.sender,
          platformOrder: channelInbox.platformOrder,
          payload: channelInbox.payload,
          options: channelInbox.options,
        })
        .from(channelInbox)
        .where(and(isNull(channelInbox.settledAt), lt(channelInbox.receivedAt, before)))
        .orderBy(asc(channelInbox.receivedAt))
        .limit(limit);
      return rows.map((row) => ({ ...row, queue: row.queue as QueueName }));
    },

    /**
     * The items of the same sender that the platform sent earlier (by its
     * order, then arrival) and that are not taken yet, oldest first (at most 20).
     */
    async earlierUntaken(
      queue: QueueName,
      jobId: string,
    ): Promise<Array<{ jobId: string; payload: unknown }>> {
      return rowsOf<{ jobId: string; payload: unknown }>(
        await db.execute(sql`SELECT e.job_id AS "jobId", e.payload
          FROM ${channelInbox} me
          JOIN ${channelInbox} e ON e.queue = me.queue AND e.sender = me.sender AND e.taken_at IS NULL
            AND (coalesce(e.platform_order, 0), e.seq) < (coalesce(me.platform_order, 0), me.seq)
          WHERE me.queue = ${queue} AND me.job_id = ${jobId}
          ORDER BY coalesce(e.platform_order, 0), e.seq
          LIMIT 20`),
      );
    },

    /**
     * When the platform last delivered a message from `sender` on `queue` (its arrival here), or
     * null. Entries are kept 24 hours after they settle, so any message of the last 24 hours is
     * found: channel A's customer-service window (approval requests, channels/chan-a/approval-chat.ts).
     */
    async lastMessageAt(queue: QueueName, sender: string): Promise<Date | null> {
      const [row] = await db
        .select({ at: max(channelInbox.receivedAt) })
        .from(channelInbox)
        .where(and(eq(channelInbox.queue, queue), eq(channelInbox.sender, sender)));
      return row?.at ?? null;
    },

    /** Marks an item taken by its consumer (stored, or dropped for good). */
    async markTaken(queue: QueueName, jobId: string): Promise<void> {
      await db
        .update(channelInbox)
        .set({ takenAt: sql`now()` })
        .where(
          and(eq(channelInbox.queue, queue), eq(channelInbox.jobId, jobId), isNull(channelInbox.takenAt)),
        );
    },

    async settle(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(channelInbox)
        .set({ settledAt: sql`now()` })
        .where(inArray(channelInbox.id, [...ids]));
    },

    /** Deletes at most `limit` entries settled before `before`; answers how many. */
    async deleteSettled(before: Date, limit: number): Promise<number> {
      const old = db
        .select({ id: channelInbox.id })
        .from(channelInbox)
        .where(and(isNotNull(channelInbox.settledAt), lt(channelInbox.settledAt, before)))
        .limit(limit);
      const deleted = await db
        .delete(channelInbox)
        .where(inArray(channelInbox.id, old))
        .returning({ id: channelInbox.id });
      return deleted.length;
    },
  };
}

export type InboxRepository = ReturnType<typeof createInboxRepository>;
