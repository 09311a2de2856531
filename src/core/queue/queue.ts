/** The queue names of the interface, exactly. */
export const QUEUE_NAMES = [
  'agent-tasks',
  'chanA-inbound',
  'chanA-outbound',
  'chanB-inbound',
  'chanB-outbound',
  'knowledge-ingest',
  'memory-extraction',
  'namespace-evaluation',
] as const;

export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobOptions {
  /** Deterministic id: adding a job whose id already exists in the queue is a no-op. Never contains ':'. */
  jobId?: string;
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** Total tries including the first (default 3). */
  attempts?: number;
  /** Base of the exponential backoff between tries, in milliseconds (default 1000). */
  backoffMs?: number;
}

export interface Job<T = unknown> {
  id: string;
  queue: QueueName;
  name: string;
  data: T;
  /** Tries made before this one. */
  attemptsMade: number;
  /** Total tries allowed. */
  maxAttempts: number;
}

export type JobHandler<T = unknown> = (job: Job<T>) => Promise<unknown>;

export interface WorkerOptions<T = unknown> {
  /** Jobs of this queue run at once in this process (default 1). */
  concurrency?: number;
  /**
   * Called once when a job has failed for good: its last try threw, or it was
   * abandoned more than JOB_MAX_STALLS times (the error then carries {@link stalledOutReason}).
   */
  onFailed?: (job: Job<T>, error: Error) => Promise<void> | void;
}

export interface CloseOptions {
  /**
   * Wait at most this long for running jobs; those still running then are
   * abandoned: their locks lapse and another process takes them again, which
   * counts as a stall. Without it, close waits for every running job.
   */
  graceMs?: number;
}

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export type JobCounts = Record<JobState, number>;

export interface JobInfo<T = unknown> extends Job<T> {
  state: JobState;
  failedReason: string | null;
}

/** A job as the queue dashboard lists it: its state and its times (Unix milliseconds). */
export interface JobListing<T = unknown> extends JobInfo<T> {
  /** When the job was added. */
  addedAt: number;
  /** When it finished (completed or failed for good); null before. */
  finishedAt: number | null;
  /** What the handler answered, for completed jobs; null otherwise. */
  result: unknown;
}

/** States whose jobs can be run again from the dashboard. */
export type RetriableState = 'completed' | 'failed';

/**
 * A job queue. Payloads carry ids only; handlers load what they need.
 * Implementations: the embedded driver (jobs in the database) and BullMQ.
 */
export interface QueueDriver {
  readonly kind: 'embedded' | 'bullmq';
  /** Adds a job and answers its id (the existing job's id when `jobId` repeats). */
  add<T>(queue: QueueName, name: string, data: T, options?: JobOptions): Promise<string>;
  /** Starts consuming a queue in this process. One call per queue. */
  process<T>(queue: QueueName, handler: JobHandler<T>, options?: WorkerOptions<T>): void;
  getJob<T = unknown>(queue: QueueName, jobId: string): Promise<JobInfo<T> | null>;
  counts(queue: QueueName): Promise<JobCounts>;
  /**
   * Jobs in any of `states`, newest first, `offset` and `limit` paging over
   * them (the queue dashboard's listing). Ordering within one page follows
   * the driver; totals come from {@link counts}.
   */
  listJobs<T = unknown>(
    queue: QueueName,
    states: readonly JobState[],
    offset: number,
    limit: number,
  ): Promise<JobListing<T>[]>;
  /**
   * Puts a completed or failed job back to waiting with its tries reset, so it
   * runs again. Answers false when the job is missing or in another state.
   */
  retryJob(queue: QueueName, jobId: string): Promise<boolean>;
  /** One job with its times and result, as {@link listJobs} gives it; null when there is none. */
  inspectJob<T = unknown>(queue: QueueName, jobId: string): Promise<JobListing<T> | null>;
  /**
   * Deletes jobs in `state` that were added (waiting, delayed) or finished
   * (completed, failed) more than `graceMs` ago; answers how many. Active jobs
   * are never removed. `limit`, when given, bounds the jobs deleted by this
   * call (the retention sweep deletes in bounded batches, so one call never
   * holds Redis or the database for long).
   */
  cleanJobs(
    queue: QueueName,
    state: Exclude<JobState, 'active'>,
    graceMs: number,
    limit?: number,
  ): Promise<number>;
  /** Deletes one job that is not running; answers false when it is missing or active. */
  removeJob(queue: QueueName, jobId: string): Promise<boolean>;
  /** Throws when the backing store cannot be reached. */
  ping(): Promise<void>;
  /**
   * Calls `listener` each time the queue's store can be reached again after
   * its connection was lost (Redis restarted, perhaps empty, or the network
   * came back), so that work whose jobs may be gone is enqueued again at once
   * rather than at the next sweep. The embedded driver keeps its jobs in the
   * database and never calls it. Answers a function that removes the listener.
   */
  onReconnect(listener: () => void): () => void;
  /** Stops taking jobs, waits for the running ones to finish (see {@link CloseOptions}), then releases connections. */
  close(options?: CloseOptions): Promise<void>;
}

/** Defaults shared by both drivers, as documented on {@link JobOptions}. */
export const DEFAULT_JOB_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 1000;
/** JOB_MAX_STALLS' default: times a job may be taken again after its process died or stalled. */
export const DEFAULT_MAX_STALLS = 2;

/**
 * The failed reason of a job that was abandoned once more than `maxStalls`
 * allows: its process died or stalled (blocked event loop, out of memory)
 * every time it ran it. Both drivers store this text, so it reads the same
 * on the dashboard and in the domain rows that onFailed marks failed.
 */
export function stalledOutReason(maxStalls: number): string {
  const times = maxStalls + 1;
  return `the job was abandoned ${times} ${times === 1 ? 'time' : 'times'} by a process that died or stalled while running it (JOB_MAX_STALLS=${maxStalls})`;
}

/** Whether `work` settled within `ms` (close's grace period); the timer never outlives the answer. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([work.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Throws when a caller-chosen job id cannot be used by every driver: BullMQ
 * rejects ids containing ':' and ids that read as integers, so the embedded
 * driver rejects them too and the difference shows up in embedded tests.
 */
export function assertJobId(jobId: string): void {
  if (jobId.length === 0 || jobId.length > 200) throw new Error('job id must be 1 to 200 characters');
  if (jobId.includes(':')) throw new Error(`job id must not contain ':' (got ${jobId})`);
  if (`${Number.parseInt(jobId, 10)}` === jobId)
    throw new Error(`job id must not be an integer (got ${jobId})`);
}
