import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type QueueJobRow, queueJobs } from '../db/schema/drivers.js';
import {
  assertJobId,
  DEFAULT_BACKOFF_MS,
  DEFAULT_JOB_ATTEMPTS,
  type DriverLogger,
  fallbackLogger,
  type Job,
  type JobCounts,
  type JobHandler,
  type JobInfo,
  type JobOptions,
  type JobState,
  type QueueDriver,
  type QueueName,
  type WorkerOptions,
} from './queue.js';

export interface EmbeddedQueueOptions {
  /** How often an idle worker looks for jobs that came due or were added by another process (default 500). */
  pollIntervalMs?: number;
  /** How long a claimed job stays locked; renewed while its handler runs (default 30 000). */
  lockMs?: number;
  logger?: DriverLogger;
}

export type EmbeddedQueueDriver = QueueDriver & { readonly kind: 'embedded' };

interface LocalWorker {
  queue: QueueName;
  handler: JobHandler<unknown>;
  concurrency: number;
  onFailed: WorkerOptions<unknown>['onFailed'];
  /** Claimed rows whose handler is running, by row id. */
  running: Set<string>;
  timer: NodeJS.Timeout | null;
  timerDueAt: number;
  /** The claim loop while it runs; a wake during it sets `again` instead of starting a second loop. */
  pumping: Promise<void> | null;
  again: boolean;
}

const msFromNow = (ms: number): SQL => sql`now() + ${ms}::double precision * interval '1 millisecond'`;

/** A waiting or delayed job reads as delayed until its time comes, as in BullMQ. */
const effectiveState = sql<JobState>`case when ${queueJobs.state} in ('waiting', 'delayed')
  then case when ${queueJobs.runAt} > now() then 'delayed' else 'waiting' end
  else ${queueJobs.state} end`;

/**
 * The queue driver of embedded mode: jobs are rows of `queue_jobs`, so they
 * survive restarts. Claims use `FOR UPDATE SKIP LOCKED`, so several pollers
 * (processes on one PostgreSQL) never take the same job. A claimed job holds
 * a lock that is renewed while its handler runs; a lock that lapses (crashed
 * worker) makes the job claimable again. Delivery is at least once.
 */
export function createEmbeddedQueue(db: Database, options: EmbeddedQueueOptions = {}): EmbeddedQueueDriver {
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const lockMs = options.lockMs ?? 30_000;
  const logger = options.logger ?? fallbackLogger;
  const workers = new Map<QueueName, LocalWorker>();
  const inFlight = new Set<Promise<void>>();
  let heartbeat: NodeJS.Timeout | null = null;
  let renewing: Promise<void> | null = null;
  let closing = false;

  function schedule(worker: LocalWorker, ms: number): void {
    if (closing) return;
    const dueAt = Date.now() + ms;
    if (worker.timer && worker.timerDueAt <= dueAt) return;
    if (worker.timer) clearTimeout(worker.timer);
    worker.timerDueAt = dueAt;
    worker.timer = setTimeout(() => {
      worker.timer = null;
      wake(worker);
    }, ms);
    // An idle poller must not keep the process alive on its own.
    worker.timer.unref();
  }

  function wake(worker: LocalWorker): void {
    if (closing) return;
    if (worker.pumping) {
      worker.again = true;
      return;
    }
    worker.pumping = (async () => {
      do {
        worker.again = false;
        await claimAndStart(worker);
      } while (worker.again && !closing);
    })().finally(() => {
      worker.pumping = null;
    });
  }

  async function claimAndStart(worker: LocalWorker): Promise<void> {
    const free = worker.concurrency - worker.running.size;
    // A full worker is woken again by its next finishing handler.
    if (free <= 0) return;
    let rows: QueueJobRow[];
    try {
      rows = await claim(worker.queue, free);
    } catch (error) {
      logger.error({ err: error, queue: worker.queue }, 'embedded queue: claiming jobs failed');
      schedule(worker, pollIntervalMs);
      return;
    }
    for (const row of rows) start(worker, row);
    if (rows.length < free) schedule(worker, pollIntervalMs);
  }

  function claim(queue: QueueName, limit: number): Promise<QueueJobRow[]> {
    const claimable = db
      .select({ id: queueJobs.id })
      .from(queueJobs)
      .where(
        and(
          eq(queueJobs.queue, queue),
          or(
            and(inArray(queueJobs.state, ['waiting', 'delayed']), lte(queueJobs.runAt, sql`now()`)),
            and(eq(queueJobs.state, 'active'), lt(queueJobs.lockedUntil, sql`now()`)),
          ),
        ),
      )
      .orderBy(queueJobs.runAt, queueJobs.createdAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(queueJobs)
      .set({ state: 'active', lockedUntil: msFromNow(lockMs) })
      .where(inArray(queueJobs.id, claimable))
      .returning();
  }

  function start(worker: LocalWorker, row: QueueJobRow): void {
    worker.running.add(row.id);
    const run = execute(worker, row).finally(() => {
      worker.running.delete(row.id);
      inFlight.delete(run);
      wake(worker);
    });
    inFlight.add(run);
  }

  async function execute(worker: LocalWorker, row: QueueJobRow): Promise<void> {
    let result: unknown;
    try {
      result = await worker.handler(toJob(row));
    } catch (caught) {
      await recordFailure(worker, row, caught instanceof Error ? caught : new Error(String(caught)));
      return;
    }
    try {
      await db
        .update(queueJobs)
        .set({ state: 'completed', result: resultOrNull(result), lockedUntil: null, finishedAt: sql`now()` })
        .where(and(eq(queueJobs.id, row.id), eq(queueJobs.state, 'active')));
    } catch (error) {
      // The lock lapses and the job runs again: handlers are written to be repeatable.
      logger.error(
        { err: error, queue: row.queue, jobId: row.jobId },
        'embedded queue: recording completion failed',
      );
    }
  }

  async function recordFailure(worker: LocalWorker, row: QueueJobRow, error: Error): Promise<void> {
    const attemptsMade = row.attemptsMade + 1;
    const context = { err: error, queue: row.queue, jobId: row.jobId, attemptsMade };
    logger.warn(context, 'embedded queue: job failed');
    const where = and(eq(queueJobs.id, row.id), eq(queueJobs.state, 'active'));
    let finallyFailed: boolean;
    try {
      if (attemptsMade < row.maxAttempts) {
        const delay = row.backoffMs * 2 ** (attemptsMade - 1);
        await db
          .update(queueJobs)
          .set({
            state: 'delayed',
            attemptsMade,
            failedReason: error.message,
            runAt: msFromNow(delay),
            lockedUntil: null,
          })
          .where(where);
        schedule(worker, delay);
        return;
      }
      const failed = await db
        .update(queueJobs)
        .set({
          state: 'failed',
          attemptsMade,
          failedReason: error.message,
          lockedUntil: null,
          finishedAt: sql`now()`,
        })
        .where(where)
        .returning({ id: queueJobs.id });
      // Only the worker whose update moved the row to failed reports it, so onFailed runs once.
      finallyFailed = failed.length > 0;
    } catch (caught) {
      logger.error({ ...context, err: caught }, 'embedded queue: recording failure failed');
      return;
    }
    if (!finallyFailed || !worker.onFailed) return;
    try {
      await worker.onFailed({ ...toJob(row), attemptsMade }, error);
    } catch (caught) {
      logger.error({ ...context, err: caught }, 'embedded queue: onFailed threw');
    }
  }

  /** Keeps the locks of running jobs fresh so a slow handler is not mistaken for a crashed one. */
  function renewLocks(): void {
    const ids = [...workers.values()].flatMap((worker) => [...worker.running]);
    if (ids.length === 0 || renewing) return;
    renewing = db
      .update(queueJobs)
      .set({ lockedUntil: msFromNow(lockMs) })
      .where(and(inArray(queueJobs.id, ids), eq(queueJobs.state, 'active')))
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, 'embedded queue: renewing locks failed'),
      )
      .finally(() => {
        renewing = null;
      });
  }

  return {
    kind: 'embedded',

    async add<T>(queue: QueueName, name: string, data: T, jobOptions: JobOptions = {}): Promise<string> {
      if (closing) throw new Error('queue driver is closed');
      if (jobOptions.jobId !== undefined) assertJobId(jobOptions.jobId);
      const jobId = jobOptions.jobId ?? randomUUID();
      const delayMs = Math.max(0, jobOptions.delayMs ?? 0);
      await db
        .insert(queueJobs)
        .values({
          queue,
          jobId,
          name,
          data: data ?? null,
          state: delayMs > 0 ? 'delayed' : 'waiting',
          maxAttempts: Math.max(1, Math.floor(jobOptions.attempts ?? DEFAULT_JOB_ATTEMPTS)),
          backoffMs: Math.max(0, Math.floor(jobOptions.backoffMs ?? DEFAULT_BACKOFF_MS)),
          runAt: msFromNow(delayMs),
        })
        .onConflictDoNothing({ target: [queueJobs.queue, queueJobs.jobId] });
      const worker = workers.get(queue);
      // A local worker hears about the job now; other processes find it when they poll.
      if (worker && delayMs > 0) schedule(worker, delayMs);
      else if (worker) wake(worker);
      return jobId;
    },

    process<T>(queue: QueueName, handler: JobHandler<T>, workerOptions: WorkerOptions<T> = {}): void {
      if (closing) throw new Error('queue driver is closed');
      if (workers.has(queue)) throw new Error(`queue ${queue} already has a worker in this process`);
      const worker: LocalWorker = {
        queue,
        handler: handler as JobHandler<unknown>,
        concurrency: Math.max(1, Math.floor(workerOptions.concurrency ?? 1)),
        onFailed: workerOptions.onFailed as WorkerOptions<unknown>['onFailed'],
        running: new Set(),
        timer: null,
        timerDueAt: 0,
        pumping: null,
        again: false,
      };
      workers.set(queue, worker);
      if (!heartbeat) {
        heartbeat = setInterval(renewLocks, Math.max(10, Math.floor(lockMs / 3)));
        heartbeat.unref();
      }
      wake(worker);
    },

    async getJob<T = unknown>(queue: QueueName, jobId: string): Promise<JobInfo<T> | null> {
      const rows = await db
        .select({ row: queueJobs, state: effectiveState })
        .from(queueJobs)
        .where(and(eq(queueJobs.queue, queue), eq(queueJobs.jobId, jobId)));
      const found = rows[0];
      if (!found) return null;
      return { ...toJob<T>(found.row), state: found.state, failedReason: found.row.failedReason };
    },

    async counts(queue: QueueName): Promise<JobCounts> {
      const rows = await db
        .select({ state: effectiveState, count: sql<number>`count(*)::int` })
        .from(queueJobs)
        .where(eq(queueJobs.queue, queue))
        .groupBy(effectiveState);
      const counts: JobCounts = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
      for (const { state, count } of rows) counts[state] = Number(count);
      return counts;
    },

    async ping(): Promise<void> {
      await db.execute(sql`select 1`);
    },

    async close(): Promise<void> {
      closing = true;
      for (const worker of workers.values()) if (worker.timer) clearTimeout(worker.timer);
      // A claim under way still starts its jobs; wait for it, then for every handler.
      await Promise.all([...workers.values()].map((worker) => worker.pumping));
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      if (heartbeat) clearInterval(heartbeat);
      await renewing;
    },
  };
}

function toJob<T>(row: QueueJobRow): Job<T> {
  return {
    id: row.jobId,
    queue: row.queue as QueueName,
    name: row.name,
    data: row.data as T,
    attemptsMade: row.attemptsMade,
    maxAttempts: row.maxAttempts,
  };
}

/** The result is kept for inspection only: undefined and values that do not serialise are stored as null. */
function resultOrNull(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    JSON.stringify(value);
    return value;
  } catch {
    return null;
  }
}
