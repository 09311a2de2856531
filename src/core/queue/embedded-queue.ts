import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { QueueJobRow } from '../db/schema/drivers.js';
import { type DriverLogger, fallbackLogger } from '../logger.js';
import { createQueueJobsRepository } from './embedded-queue.repository.js';
import { createQueueJobsAdminRepository } from './embedded-queue-admin.repository.js';
import {
  assertJobId,
  type CloseOptions,
  DEFAULT_BACKOFF_MS,
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_MAX_STALLS,
  type Job,
  type JobCounts,
  type JobHandler,
  type JobInfo,
  type JobListing,
  type JobOptions,
  type JobState,
  type QueueDriver,
  type QueueName,
  settlesWithin,
  stalledOutReason,
  type WorkerOptions,
} from './queue.js';

export interface EmbeddedQueueOptions {
  /** How often an idle worker looks for jobs that came due or were added by another process (default 500). */
  pollIntervalMs?: number;
  /** How long a claimed job stays locked; renewed while its handler runs (default 30 000). */
  lockMs?: number;
  /** JOB_MAX_STALLS: times a job whose lock lapsed is taken again before it fails for good (default 2). */
  maxStalls?: number;
  /**
   * Only this process uses the database (PGlite, under the data directory's
   * lock): a job found active when this process starts consuming was left by
   * a process that died, and is taken again at once instead of when its lock
   * lapses (counted as a stall all the same).
   */
  soleProcess?: boolean;
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

/**
 * The queue driver of embedded mode: jobs are rows of `queue_jobs`, so they
 * survive restarts. Claims use `FOR UPDATE SKIP LOCKED`, so several pollers
 * (processes on one PostgreSQL) never take the same job. A claimed job holds
 * a lock that is renewed while its handler runs; a lock that lapses (crashed
 * or stalled worker) makes the job claimable again, at most `maxStalls` times:
 * the next time it fails for good, so a job that kills every process running
 * it cannot crash them in a loop. Delivery is at least once.
 */
export function createEmbeddedQueue(db: Database, options: EmbeddedQueueOptions = {}): EmbeddedQueueDriver {
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const lockMs = options.lockMs ?? 30_000;
  const maxStalls = Math.max(0, Math.floor(options.maxStalls ?? DEFAULT_MAX_STALLS));
  const logger = options.logger ?? fallbackLogger;
  const jobs = createQueueJobsRepository(db, lockMs);
  const admin = createQueueJobsAdminRepository(db);
  const workers = new Map<QueueName, LocalWorker>();
  const inFlight = new Set<Promise<void>>();
  let heartbeat: NodeJS.Timeout | null = null;
  let renewing: Promise<void> | null = null;
  let closing = false;
  /** Set when close gave up waiting: late results of abandoned jobs are not written. */
  let abandoned = false;
  let closed: Promise<void> | null = null;
  /** With `soleProcess`, the locks of the dead process's jobs, lapsed once before the first claim. */
  let leftBehind: Promise<void> | null = null;

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
      if (options.soleProcess) {
        // A failure is tried again at the next claim, not remembered.
        leftBehind ??= jobs.lapseActiveLocks().catch((error: unknown) => {
          leftBehind = null;
          throw error;
        });
        await leftBehind;
      }
      rows = await jobs.claim(worker.queue, free);
    } catch (error) {
      logger.error({ err: error, queue: worker.queue }, 'embedded queue: claiming jobs failed');
      schedule(worker, pollIntervalMs);
      return;
    }
    for (const row of rows) start(worker, row);
    if (rows.length < free) schedule(worker, pollIntervalMs);
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
    if (row.stalls > maxStalls) {
      // Its process died or stalled once too often: running it again could take this one down too.
      await failForGood(worker, row, row.attemptsMade, new Error(stalledOutReason(maxStalls)));
      return;
    }
    let result: unknown;
    try {
      result = await worker.handler(toJob(row));
    } catch (caught) {
      if (abandoned) return;
      await recordFailure(worker, row, caught instanceof Error ? caught : new Error(String(caught)));
      return;
    }
    // Abandoned by close: the job is another process's now.
    if (abandoned) return;
    try {
      await jobs.complete(row.id, resultOrNull(result));
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
    try {
      if (attemptsMade < row.maxAttempts) {
        const delay = row.backoffMs * 2 ** (attemptsMade - 1);
        await jobs.retryLater(row.id, attemptsMade, error.message, delay);
        schedule(worker, delay);
        return;
      }
    } catch (caught) {
      logger.error({ ...context, err: caught }, 'embedded queue: recording failure failed');
      return;
    }
    await failForGood(worker, row, attemptsMade, error);
  }

  /** Marks the job failed and calls onFailed, once: only the worker whose update moved the row reports it. */
  async function failForGood(
    worker: LocalWorker,
    row: QueueJobRow,
    attemptsMade: number,
    error: Error,
  ): Promise<void> {
    const context = { err: error, queue: row.queue, jobId: row.jobId, attemptsMade };
    let finallyFailed: boolean;
    try {
      finallyFailed = await jobs.fail(row.id, attemptsMade, error.message);
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
    renewing = jobs
      .renewLocks(ids)
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, 'embedded queue: renewing locks failed'),
      )
      .finally(() => {
        renewing = null;
      });
  }

  async function shutDown(closeOptions: CloseOptions): Promise<void> {
    closing = true;
    for (const worker of workers.values()) if (worker.timer) clearTimeout(worker.timer);
    // A claim under way still starts its jobs; wait for it, then for every handler.
    await Promise.all([...workers.values()].map((worker) => worker.pumping));
    const drained = (async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    })();
    if (closeOptions.graceMs === undefined) await drained;
    else if (!(await settlesWithin(drained, closeOptions.graceMs))) {
      abandoned = true;
      const running = [...workers.values()].reduce((sum, worker) => sum + worker.running.size, 0);
      logger.warn({ jobs: running }, 'embedded queue: closing with jobs still running; they are abandoned');
    }
    // Locks stop being renewed: an abandoned job's lapses and another process takes it.
    if (heartbeat) clearInterval(heartbeat);
    await renewing;
  }

  return {
    kind: 'embedded',

    async add<T>(queue: QueueName, name: string, data: T, jobOptions: JobOptions = {}): Promise<string> {
      if (closing) throw new Error('queue driver is closed');
      if (jobOptions.jobId !== undefined) assertJobId(jobOptions.jobId);
      const jobId = jobOptions.jobId ?? randomUUID();
      const delayMs = Math.max(0, jobOptions.delayMs ?? 0);
      await jobs.insert({
        queue,
        jobId,
        name,
        data: data ?? null,
        delayMs,
        maxAttempts: Math.max(1, Math.floor(jobOptions.attempts ?? DEFAULT_JOB_ATTEMPTS)),
        backoffMs: Math.max(0, Math.floor(jobOptions.backoffMs ?? DEFAULT_BACKOFF_MS)),
      });
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
      const found = await jobs.find(queue, jobId);
      if (!found) return null;
      return { ...toJob<T>(found.row), state: found.state, failedReason: found.row.failedReason };
    },

    counts(queue: QueueName): Promise<JobCounts> {
      return jobs.countByState(queue);
    },

    listJobs<T = unknown>(queue: QueueName, states: readonly JobState[], offset: number, limit: number) {
      return admin.list(queue, states, offset, limit) as Promise<JobListing<T>[]>;
    },

    async retryJob(queue: QueueName, jobId: string): Promise<boolean> {
      const retried = await admin.retry(queue, jobId);
      const worker = workers.get(queue);
      if (retried && worker) wake(worker);
      return retried;
    },

    inspectJob<T = unknown>(queue: QueueName, jobId: string) {
      return admin.find(queue, jobId) as Promise<JobListing<T> | null>;
    },

    cleanJobs(
      queue: QueueName,
      state: Exclude<JobState, 'active'>,
      graceMs: number,
      limit?: number,
    ): Promise<number> {
      return admin.clean(queue, state, graceMs, limit);
    },

    removeJob(queue: QueueName, jobId: string): Promise<boolean> {
      return admin.remove(queue, jobId);
    },

    ping(): Promise<void> {
      return jobs.ping();
    },

    // Jobs live in the database itself: a lost connection loses none of them.
    onReconnect(): () => void {
      return () => undefined;
    },

    close(closeOptions: CloseOptions = {}): Promise<void> {
      // A second call answers the first one's promise: its grace period holds.
      closed ??= shutDown(closeOptions);
      return closed;
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
