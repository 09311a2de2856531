import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../core/db/client.js';
import { type Delivery, pendingReplyJobs, SENT_CHANNELS } from './delivery.js';

/** The re-enqueue's name on the scheduler (part of its slot claim key). */
export const REQUEUE_REPLIES_NAME = 'requeue-replies';
/** How often it runs, and how long a reply stays `queued` before it is looked at. */
export const REQUEUE_REPLIES_EVERY_MS = 60_000;
/** Replies looked at per run, oldest first; the rest wait for the next minute. */
const REQUEUE_BATCH = 500;

/**
 * Outbound replies left `queued` without their job (on a channel with a
 * transport: an `email` reply has none to wait for): a process that stopped
 * between the commit that wrote a reply (the pipeline's decision, an
 * approved reply, a bot answer) and the enqueue that follows it. Once a
 * minute (a recurring task of the scheduler, workers/schedules.ts), every
 * reply `queued` for more than a minute has its job added again under its
 * usual id, `outbound-<messageId>`: a no-op for a reply whose job exists
 * (jobs are kept after they end), so only a lost one is sent. The outbound
 * worker sends a reply only while it is `queued`, one job at a time.
 */
export function createQueuedReplies(deps: { db: Database; delivery: Pick<Delivery, 'enqueue'> }) {
  return {
    name: REQUEUE_REPLIES_NAME,
    everyMs: REQUEUE_REPLIES_EVERY_MS,

    /** Adds the job of every reply queued since before `now` − a minute (at most 500); answers how many replies. */
    async requeue(now = Date.now()): Promise<number> {
      const before = new Date(now - REQUEUE_REPLIES_EVERY_MS).toISOString();
      const replies = rowsOf<{ id: string; channel: string; status: string }>(
        await deps.db.execute(sql`SELECT id, channel, status FROM messages
          WHERE direction = 'outbound' AND status = 'queued' AND created_at < ${before}::timestamptz
            AND channel = ANY(${`{${SENT_CHANNELS.join(',')}}`}::text[])
          ORDER BY created_at LIMIT ${REQUEUE_BATCH}`),
      );
      for (const reply of replies) await deps.delivery.enqueue(pendingReplyJobs(reply));
      return replies.length;
    },
  };
}

export type QueuedReplies = ReturnType<typeof createQueuedReplies>;
