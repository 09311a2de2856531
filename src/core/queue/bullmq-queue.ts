import { type Job as BullJob, type JobType, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { type DriverLogger, fallbackLogger } from '../logger.js';
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
  QUEUE_NAMES,
  type QueueDriver,
  type QueueName,
  settlesWithin,
  stalledOutReason,
  type WorkerOptions,
} from './queue.js';

export interface BullmqQueueOptions {
  url: string;
  /** BullMQ key prefix: every key of queue `q` lives under `${prefix}:q:`. */
  prefix: string;
  /** JOB_MAX_STALLS: times a stalled job goes back to waiting before it fails for good (default 2). */
  maxStalls?: number;
  /** How long a running job's lock lasts; renewed at half of it while the handler runs (default 30 000). */
  lockMs?: number;
  /** How often workers look for jobs whose lock lapsed (default 30 000). */
  stalledIntervalMs?: number;
  logger?: DriverLogger;
}

export interface BullmqQueueDriver extends QueueDriver {
  readonly kind: 'bullmq';
  /** The BullMQ queues of every queue name (created on first use), for bull-board. */
  bullQueues(): Queue[];
}

/** BullMQ's states folded onto ours: the variants of "not started yet" read as waiting. */
const STATE_OF: Partial<Record<string, JobState>> = {
  waiting: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  delayed: 'delayed',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
};
const COUNTED_TYPES = Object.keys(STATE_OF) as JobType[];

/** The failed reason BullMQ gives a job that stalled more than `maxStalledCount` times. */
const BULLMQ_STALLED_OUT = 'job stalled more than allowable limit';

/**
 * The queue driver of distributed mode, on BullMQ. Queues and workers are
 * created per queue name on first use. Producers share one connection that
 * gives up on a command after ioredis' retries (so an API request fails
 * rather than hangs while Redis is away); workers share one with
 * `maxRetriesPerRequest: null`, as BullMQ requires, and each adds its own
 * blocking connection. A job whose lock lapsed (its process died or
 * stalled) goes back to waiting at most `maxStalls` times (BullMQ's
 * `maxStalledCount`); the next time it fails for good with
 * {@link stalledOutReason}, read in place of BullMQ's own wording.
 */
export function createBullmqQueue(options: BullmqQueueOptions): BullmqQueueDriver {
  const { prefix } = options;
  const logger = options.logger ?? fallbackLogger;
  const maxStalls = Math.max(0, Math.floor(options.maxStalls ?? DEFAULT_MAX_STALLS));

  const onRedisError = (error: unknown) =>
    logger.warn({ err: error }, 'bullmq queue: redis connection error');
  const producer = new Redis(options.url);
  producer.on('error', onRedisError);
  // ioredis reconnects by itself; a 'ready' after the first means Redis came back, perhaps empty.
  const reconnectListeners = new Set<() => void>();
  let connectedOnce = false;
  producer.on('ready', () => {
    if (!connectedOnce) {
      connectedOnce = true;
      return;
    }
    logger.warn({}, 'bullmq queue: redis connection is back; enqueuing again what may have been lost');
    for (const listener of reconnectListeners) listener();
  });
  let consumer: Redis | null = null;
  const queues = new Map<QueueName, Queue>();
  const workers = new Map<QueueName, Worker>();
  /** onFailed callbacks under way; close waits for them. */
  const reporting = new Set<Promise<void>>();
  /** Handlers running in this process, for close's grace period. */
  const running = new Set<Promise<unknown>>();
  let closing = false;
  let closed: Promise<void> | null = null;

  function queueOf(name: QueueName): Queue {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: producer, prefix });
      queue.on('error', (error) => logger.error({ err: error, queue: name }, 'bullmq queue: queue error'));
      queues.set(name, queue);
    }
    return queue;
  }

  function consumerConnection(): Redis {
    if (!consumer) {
      consumer = new Redis(options.url, { maxRetriesPerRequest: null });
      consumer.on('error', onRedisError);
    }
    return consumer;
  }

  function report<T>(
    name: QueueName,
    bullJob: BullJob,
    error: Error,
    onFailed: WorkerOptions<T>['onFailed'],
  ) {
    // BullMQ emits `failed` after every try; only the last one is a final failure, or an
    // unrecoverable one (a job that stalled out is failed that way without running).
    const final = bullJob.attemptsMade >= (bullJob.opts.attempts ?? 1) || error.name === 'UnrecoverableError';
    if (!onFailed || !final) return;
    const reported = error.message === BULLMQ_STALLED_OUT ? new Error(stalledOutReason(maxStalls)) : error;
    const run = (async () => {
      try {
        await onFailed(toJob<T>(name, bullJob), reported);
      } catch (caught) {
        logger.error({ err: caught, queue: name, jobId: bullJob.id }, 'bullmq queue: onFailed threw');
      }
    })().finally(() => reporting.delete(run));
    reporting.add(run);
  }

  async function shutDown(closeOptions: CloseOptions): Promise<void> {
    closing = true;
    let abandon = false;
    if (closeOptions.graceMs !== undefined) {
      // Paused workers take no more jobs; the running ones get the grace period.
      await Promise.all([...workers.values()].map((worker) => worker.pause(true)));
      const drained = (async () => {
        while (running.size > 0) await Promise.allSettled([...running]);
      })();
      abandon = !(await settlesWithin(drained, closeOptions.graceMs));
      if (abandon)
        logger.warn(
          { jobs: running.size },
          'bullmq queue: closing with jobs still running; they are abandoned',
        );
    }
    // Workers first: close() lets active jobs finish and their results land; a forced close
    // stops renewing their locks, so they stall and another process takes them.
    await Promise.all([...workers.values()].map((worker) => worker.close(abandon)));
    while (reporting.size > 0) await Promise.allSettled([...reporting]);
    await Promise.all([...queues.values()].map((queue) => queue.close()));
    await Promise.all([producer, consumer].map((client) => client?.quit().catch(() => client.disconnect())));
  }

  return {
    kind: 'bullmq',

    async add<T>(name: QueueName, jobName: string, data: T, jobOptions: JobOptions = {}): Promise<string> {
      if (closing) throw new Error('queue driver is closed');
      if (jobOptions.jobId !== undefined) assertJobId(jobOptions.jobId);
      const job = await queueOf(name).add(jobName, data ?? null, {
        ...(jobOptions.jobId !== undefined ? { jobId: jobOptions.jobId } : {}),
        delay: Math.max(0, jobOptions.delayMs ?? 0),
        attempts: Math.max(1, Math.floor(jobOptions.attempts ?? DEFAULT_JOB_ATTEMPTS)),
        backoff: { type: 'exponential', delay: Math.max(0, jobOptions.backoffMs ?? DEFAULT_BACKOFF_MS) },
      });
      // A repeated jobId answers the existing job, whose id is the same.
      if (!job.id) throw new Error(`BullMQ gave no id for a job of ${name}`);
      return job.id;
    },

    process<T>(name: QueueName, handler: JobHandler<T>, workerOptions: WorkerOptions<T> = {}): void {
      if (closing) throw new Error('queue driver is closed');
      if (workers.has(name)) throw new Error(`queue ${name} already has a worker in this process`);
      const processor = (bullJob: BullJob) => {
        const run = handler(toJob<T>(name, bullJob));
        running.add(run);
        return run.finally(() => running.delete(run));
      };
      const worker = new Worker(name, processor, {
        connection: consumerConnection(),
        prefix,
        concurrency: Math.max(1, Math.floor(workerOptions.concurrency ?? 1)),
        maxStalledCount: maxStalls,
        ...(options.lockMs !== undefined ? { lockDuration: options.lockMs } : {}),
        ...(options.stalledIntervalMs !== undefined ? { stalledInterval: options.stalledIntervalMs } : {}),
      });
      worker.on('failed', (bullJob, error) => {
        if (bullJob) report(name, bullJob, error, workerOptions.onFailed);
      });
      worker.on('error', (error) => logger.error({ err: error, queue: name }, 'bullmq queue: worker error'));
      workers.set(name, worker);
    },

    async getJob<T = unknown>(name: QueueName, jobId: string): Promise<JobInfo<T> | null> {
      const bullJob = await queueOf(name).getJob(jobId);
      if (!bullJob) return null;
      const state = STATE_OF[await bullJob.getState()];
      // 'unknown': the job was removed between the two reads.
      if (!state) return null;
      return { ...toJob<T>(name, bullJob), state, failedReason: failedReasonOf(bullJob, maxStalls) };
    },

    async counts(name: QueueName): Promise<JobCounts> {
      const raw = await queueOf(name).getJobCounts(...COUNTED_TYPES);
      const counts: JobCounts = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
      for (const [type, count] of Object.entries(raw)) {
        const state = STATE_OF[type];
        if (state) counts[state] += count;
      }
      return counts;
    },

    async listJobs<T = unknown>(
      name: QueueName,
      states: readonly JobState[],
      offset: number,
      limit: number,
    ): Promise<JobListing<T>[]> {
      if (states.length === 0 || limit <= 0) return [];
      const types = COUNTED_TYPES.filter((type) => states.includes(STATE_OF[type] as JobState));
      const start = Math.max(0, offset);
      const bullJobs = await queueOf(name).getJobs(types, start, start + limit - 1, false);
      const listed: JobListing<T>[] = [];
      for (const bullJob of bullJobs) {
        // A job removed between the range read and the hash read comes back empty.
        const listing = bullJob?.id ? await toListing<T>(name, bullJob, maxStalls) : null;
        if (listing) listed.push(listing);
      }
      return listed;
    },

    async inspectJob<T = unknown>(name: QueueName, jobId: string): Promise<JobListing<T> | null> {
      const bullJob = await queueOf(name).getJob(jobId);
      return bullJob ? toListing<T>(name, bullJob, maxStalls) : null;
    },

    async retryJob(name: QueueName, jobId: string): Promise<boolean> {
      const bullJob = await queueOf(name).getJob(jobId);
      if (!bullJob) return false;
      const state = await bullJob.getState();
      if (state !== 'completed' && state !== 'failed') return false;
      // BullMQ's retry keeps the stall count and the pending stalled-out failure ('stc', 'defa'),
      // which would fail the job again at once; the job is finished, so no worker writes them meanwhile.
      await producer.hdel(queueOf(name).toKey(jobId), 'stc', 'defa');
      await bullJob.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
      return true;
    },

    async cleanJobs(
      name: QueueName,
      state: Exclude<JobState, 'active'>,
      graceMs: number,
      limit?: number,
    ): Promise<number> {
      const queue = queueOf(name);
      const types = state === 'waiting' ? (['wait', 'prioritized'] as const) : ([state] as const);
      // BullMQ reads a limit of 0 as none.
      const bounded = limit === undefined ? null : Math.max(1, Math.floor(limit));
      let removed = 0;
      for (const type of types) {
        if (bounded !== null && removed >= bounded) break;
        const left = bounded === null ? 0 : bounded - removed;
        removed += (await queue.clean(Math.max(0, graceMs), left, type)).length;
      }
      return removed;
    },

    async removeJob(name: QueueName, jobId: string): Promise<boolean> {
      const bullJob = await queueOf(name).getJob(jobId);
      if (!bullJob) return false;
      if ((await bullJob.getState()) === 'active') return false;
      await bullJob.remove();
      return true;
    },

    async ping(): Promise<void> {
      await producer.ping();
    },

    onReconnect(listener: () => void): () => void {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },

    bullQueues(): Queue[] {
      return QUEUE_NAMES.map(queueOf);
    },

    close(closeOptions: CloseOptions = {}): Promise<void> {
      // A second call answers the first one's promise: its grace period holds.
      closed ??= shutDown(closeOptions);
      return closed;
    },
  };
}

/** A job with its state and times; null when it was removed before its state was read. */
async function toListing<T>(
  name: QueueName,
  bullJob: BullJob,
  maxStalls: number,
): Promise<JobListing<T> | null> {
  const state = STATE_OF[await bullJob.getState()];
  if (!state) return null;
  return {
    ...toJob<T>(name, bullJob),
    state,
    failedReason: failedReasonOf(bullJob, maxStalls),
    addedAt: bullJob.timestamp,
    finishedAt: bullJob.finishedOn ?? null,
    result: bullJob.returnvalue ?? null,
  };
}

/** A job's failed reason in our words: the stalled-out text matches the embedded driver's. */
function failedReasonOf(bullJob: BullJob, maxStalls: number): string | null {
  if (bullJob.failedReason === BULLMQ_STALLED_OUT) return stalledOutReason(maxStalls);
  return bullJob.failedReason || null;
}

function toJob<T>(name: QueueName, bullJob: BullJob): Job<T> {
  return {
    id: bullJob.id ?? '',
    queue: name,
    name: bullJob.name,
    data: bullJob.data as T,
    attemptsMade: bullJob.attemptsMade,
    maxAttempts: bullJob.opts.attempts ?? 1,
  };
}
