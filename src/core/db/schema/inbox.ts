import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, tsz } from './columns.js';

/**
 * Channel items (messages, receipts, updates) taken from a platform, written
 * before the platform is told they arrived: the queue job that works one can
 * be lost with Redis, the row cannot, and a sweep enqueues it again
 * (channels/inbox/). A row is settled once its job has finished.
 */
export const channelInbox = pgTable(
  'channel_inbox',
  {
    id: id(),
    /** Arrival order: rows of one insert get their numbers in the order of its values. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    /** The queue and the deterministic job id that work the item: one row per platform item. */
    queue: text('queue').notNull(),
    jobId: text('job_id').notNull(),
    jobName: text('job_name').notNull(),
    /** The platform's sender (channel user id) of a message; null for receipts. */
    sender: text('sender'),
    /**
     * The platform's own order of the sender's items (channel A: the message
     * timestamp in seconds; channel B: the update id); ties go by arrival.
     */
    platformOrder: bigint('platform_order', { mode: 'number' }),
    /** The job's payload, as the queue would carry it. */
    payload: jsonb('payload').$type<unknown>().notNull(),
    /** The job's options (tries, backoff), for a job enqueued again. */
    options: jsonb('options').$type<{ attempts?: number; backoffMs?: number }>().notNull(),
    receivedAt: tsz('received_at').notNull().defaultNow(),
    /** When the consumer took the item (stored it, or dropped it for good); a sender's later items wait for it. */
    takenAt: tsz('taken_at'),
    /** When its job was seen finished (completed or failed for good); null while it may need enqueueing. */
    settledAt: tsz('settled_at'),
  },
  (t) => [
    uniqueIndex('channel_inbox_queue_job_id_idx').on(t.queue, t.jobId),
    // The sweep's read: unsettled rows, oldest first.
    index('channel_inbox_unsettled_idx').on(t.receivedAt).where(sql`${t.settledAt} is null`),
    // One sender's items in arrival order (the intake takes them in that order).
    index('channel_inbox_sender_idx')
      .on(t.queue, t.sender, t.platformOrder, t.seq)
      .where(sql`${t.takenAt} is null`),
    // A sender's latest message (channel A's 24-hour window for approval requests).
    index('channel_inbox_sender_received_idx').on(t.queue, t.sender, t.receivedAt),
    // Retention of settled rows.
    index('channel_inbox_settled_idx').on(t.settledAt).where(sql`${t.settledAt} is not null`),
  ],
);

export type ChannelInboxRow = typeof channelInbox.$inferSelect;
