import { QUEUE_NAMES, type QueueDriver } from '../core/queue/queue.js';
import type { RecurringTask } from '../core/scheduler.js';

/** The sweep's name on the scheduler (part of its slot claim key). */
export const QUEUE_RETENTION_NAME = 'queue-retention';
/** How often the sweep runs (and at start). */
export const QUEUE_RETENTION_EVERY_MS = 60 * 60_000;
/**
 * Jobs deleted by one clean call. On Redis a clean is one Lua script, which
 * holds the server while it runs; in the database one DELETE. Batches keep
 * each short, however many jobs a busy week left.
 */
export const QUEUE_RETENTION_BATCH = 1000;

/** Clean calls per queue and state in one sweep (five million jobs at the default batch). */
const QUEUE_RETENTION_MAX_CALLS = 5000;
const HOUR_MS = 60 * 60_000;

export interface QueueRetentionDeps {
  queue: QueueDriver;
  /** QUEUE_COMPLETED_RETENTION_HOURS. */
  completedHours: number;
  /** QUEUE_FAILED_RETENTION_HOURS. */
  failedHours: number;
  logger: { info(object: object, message?: string): void };
  /** Jobs per clean call; {@link QUEUE_RETENTION_BATCH} unless given. */
  batch?: number;
}

/** Jobs the sweep deleted, by the state they ended in. */
export interface QueueRetentionResult {
  completed: number;
  failed: number;
}

/**
 * Deletes the jobs of every queue that completed more than `completedHours`
 * ago, and those that failed for good more than `failedHours` ago, in
 * batches until none is left; answers how many of each.
 *
 * Both drivers keep a job after it ends, which is what makes a repeated job
 * id a no-op; the ids that must stay no-ops do so well within the default
 * week. A task's or an outbound reply's job is added again only while its row
 * is still `queued` (pipeline/lost-jobs.ts), which lasts minutes; a channel
 * message delivered again later is stored once by its unique channel message
 * id whether or not its job is still there; scheduler slot jobs name a slot
 * that has passed. Waiting, delayed and active jobs are never touched.
 */
export async function sweepFinishedJobs(deps: QueueRetentionDeps): Promise<QueueRetentionResult> {
  const batch = deps.batch ?? QUEUE_RETENTION_BATCH;
  const result: QueueRetentionResult = { completed: 0, failed: 0 };
  const graces = { completed: deps.completedHours * HOUR_MS, failed: deps.failedHours * HOUR_MS } as const;
  for (const name of QUEUE_NAMES) {
    for (const state of ['completed', 'failed'] as const) {
      // A short batch means nothing older is left (jobs that finish meanwhile are younger than the
      // grace); the bound only stops a sweep that a driver fault would keep going, the next slot goes on.
      for (let removed = batch, calls = 0; removed === batch && calls < QUEUE_RETENTION_MAX_CALLS; calls++) {
        removed = await deps.queue.cleanJobs(name, state, graces[state], batch);
        result[state] += removed;
      }
    }
  }
  return result;
}

/**
 * The sweep as a recurring task: hourly and at start in the worker run
 * modes, once per slot across replicas (core/scheduler.ts).
 */
export function queueRetentionTask(deps: QueueRetentionDeps): RecurringTask {
  return {
    name: QUEUE_RETENTION_NAME,
    everyMs: QUEUE_RETENTION_EVERY_MS,
    async run() {
      const result = await sweepFinishedJobs(deps);
      if (result.completed + result.failed > 0)
        deps.logger.info({ ...result }, 'queue retention: finished jobs past their retention deleted');
      return result;
    },
  };
}
