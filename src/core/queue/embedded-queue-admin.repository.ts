import { and, desc, eq, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type QueueJobRow, queueJobs } from '../db/schema/drivers.js';
import type { JobListing, JobState, QueueName } from './queue.js';

/** A waiting or delayed job reads as delayed until its time comes, as in BullMQ (the driver's own rule). */
const effectiveState = sql<JobState>`case when ${queueJobs.state} in ('waiting', 'delayed')
  then case when ${queueJobs.runAt} > now() then 'delayed' else 'waiting' end
  else ${queueJobs.state} end`;

/** The stored states of each effective state, written as literals (see `clean`). */
const storedStates: Record<Exclude<JobState, 'active'>, SQL> = {
  waiting: sql`${queueJobs.state} in ('waiting', 'delayed')`,
  delayed: sql`${queueJobs.state} in ('waiting', 'delayed')`,
  completed: sql`${queueJobs.state} = 'completed'`,
  failed: sql`${queueJobs.state} = 'failed'`,
};

/** Times are taken from the database clock, so several processes agree on them. */
const msAgo = (ms: number) => sql`now() - ${ms}::double precision * interval '1 millisecond'`;

/**
 * The queue dashboard's queries over `queue_jobs`: listing by state, retry,
 * clean and remove. Kept apart from the claim path, which they never touch
 * beyond moving finished rows back to waiting.
 */
export function createQueueJobsAdminRepository(db: Database) {
  return {
    async list(
      queue: QueueName,
      states: readonly JobState[],
      offset: number,
      limit: number,
    ): Promise<JobListing[]> {
      if (states.length === 0 || limit <= 0) return [];
      const rows = await db
        .select({ row: queueJobs, state: effectiveState })
        .from(queueJobs)
        .where(and(eq(queueJobs.queue, queue), inArray(effectiveState, [...states])))
        .orderBy(desc(queueJobs.createdAt), desc(queueJobs.id))
        .offset(Math.max(0, offset))
        .limit(limit);
      return rows.map(({ row, state }) => toListing(row, state));
    },

    async find(queue: QueueName, jobId: string): Promise<JobListing | null> {
      const [found] = await db
        .select({ row: queueJobs, state: effectiveState })
        .from(queueJobs)
        .where(and(eq(queueJobs.queue, queue), eq(queueJobs.jobId, jobId)));
      return found ? toListing(found.row, found.state) : null;
    },

    /** Moves a completed or failed job back to waiting, tries and stalls reset; false when it is not in such a state. */
    async retry(queue: QueueName, jobId: string): Promise<boolean> {
      const rows = await db
        .update(queueJobs)
        .set({
          state: 'waiting',
          attemptsMade: 0,
          stalls: 0,
          failedReason: null,
          result: null,
          runAt: sql`now()`,
          lockedUntil: null,
          finishedAt: null,
        })
        .where(
          and(
            eq(queueJobs.queue, queue),
            eq(queueJobs.jobId, jobId),
            inArray(queueJobs.state, ['completed', 'failed']),
          ),
        )
        .returning({ id: queueJobs.id });
      return rows.length > 0;
    },

    /**
     * Deletes the jobs of one (effective) state older than the grace period,
     * at most `limit` when given (any of them: all are past the grace);
     * answers how many.
     */
    async clean(
      queue: QueueName,
      state: Exclude<JobState, 'active'>,
      graceMs: number,
      limit?: number,
    ): Promise<number> {
      const matching = and(
        eq(queueJobs.queue, queue),
        // The stored state narrows the rows through a partial index (a literal, so a prepared
        // statement's generic plan can use it too); the effective one tells waiting from delayed.
        storedStates[state],
        eq(effectiveState, state),
        // Finished jobs by when they finished (through the same index), the others by when they were added.
        lt(
          state === 'completed' || state === 'failed' ? queueJobs.finishedAt : queueJobs.createdAt,
          msAgo(Math.max(0, graceMs)),
        ),
      );
      const rows = await db
        .delete(queueJobs)
        .where(
          limit === undefined
            ? matching
            : inArray(
                queueJobs.id,
                db
                  .select({ id: queueJobs.id })
                  .from(queueJobs)
                  .where(matching)
                  .limit(Math.max(1, Math.floor(limit))),
              ),
        )
        .returning({ id: queueJobs.id });
      return rows.length;
    },

    /** Deletes one job unless a worker holds it. */
    async remove(queue: QueueName, jobId: string): Promise<boolean> {
      const rows = await db
        .delete(queueJobs)
        .where(and(eq(queueJobs.queue, queue), eq(queueJobs.jobId, jobId), ne(queueJobs.state, 'active')))
        .returning({ id: queueJobs.id });
      return rows.length > 0;
    },
  };
}

function toListing(row: QueueJobRow, state: JobState): JobListing {
  return {
    id: row.jobId,
    queue: row.queue as QueueName,
    name: row.name,
    data: row.data,
    attemptsMade: row.attemptsMade,
    maxAttempts: row.maxAttempts,
    state,
    failedReason: row.failedReason,
    addedAt: row.createdAt.getTime(),
    finishedAt: row.finishedAt ? row.finishedAt.getTime() : null,
    result: row.result ?? null,
  };
}
