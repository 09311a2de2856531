import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tsz } from './columns.js';

/** Jobs of the embedded queue driver (used when REDIS_URL is unset). */
export const queueJobs = pgTable(
  'queue_jobs',
  {
    id: id(),
    queue: text('queue').notNull(),
    /** Caller-chosen id: adding a job whose id exists is a no-op. Generated when not given. */
    jobId: text('job_id').notNull(),
    name: text('name').notNull(),
    data: jsonb('data').$type<unknown>().notNull(),
    /** waiting, delayed, active, completed or failed. */
    state: text('state').notNull().default('waiting'),
    attemptsMade: integer('attempts_made').notNull().default(0),
    /** Times the job was taken again after its lock lapsed (its process died or stalled); past JOB_MAX_STALLS it fails. */
    stalls: integer('stalls').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(1),
    backoffMs: integer('backoff_ms').notNull().default(1000),
    runAt: tsz('run_at').notNull().defaultNow(),
    /** An active job whose lock has lapsed belongs to a crashed worker and is taken again. */
    lockedUntil: tsz('locked_until'),
    failedReason: text('failed_reason'),
    result: jsonb('result').$type<unknown>(),
    createdAt: createdAt(),
    finishedAt: tsz('finished_at'),
  },
  (t) => [
    uniqueIndex('queue_jobs_queue_job_id_idx').on(t.queue, t.jobId),
    index('queue_jobs_queue_state_run_at_idx')
      .on(t.queue, t.state, t.runAt)
      .where(sql`${t.state} in ('waiting', 'delayed', 'active')`),
    // A claim's due jobs in the order they are taken (embedded-queue.repository.ts `claim`).
    index('queue_jobs_due_idx')
      .on(t.queue, t.runAt, t.createdAt)
      .where(sql`${t.state} in ('waiting', 'delayed')`),
    // The retention sweep's and the dashboard's clean of finished jobs (workers/queue-retention.ts).
    index('queue_jobs_finished_idx')
      .on(t.queue, t.state, t.finishedAt)
      .where(sql`${t.state} in ('completed', 'failed')`),
  ],
);

/** Key-value entries of the embedded driver: rate-limit counters, channel tokens, locks. */
export const kvEntries = pgTable('kv_entries', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  expiresAt: tsz('expires_at'),
});

export type QueueJobRow = typeof queueJobs.$inferSelect;
