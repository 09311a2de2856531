import type { Database } from '../db/client.js';
import type { DriverLogger } from '../logger.js';
import { type BullmqQueueDriver, createBullmqQueue } from './bullmq-queue.js';
import { createEmbeddedQueue, type EmbeddedQueueDriver } from './embedded-queue.js';
import { type JobObserver, observeJobs } from './job-timing.js';

export type { JobObserver } from './job-timing.js';
export * from './queue.js';
export type { BullmqQueueDriver, EmbeddedQueueDriver };

/** Either driver; narrow on `kind` to reach `bullQueues()`. */
export type AnyQueueDriver = EmbeddedQueueDriver | BullmqQueueDriver;

/**
 * The queue driver the configuration asks for: BullMQ when REDIS_URL is set,
 * the embedded driver (jobs in the database) otherwise.
 */
export function createQueueDriver(
  config: {
    redisUrl: string | null;
    redisPrefix: string;
    jobMaxStalls: number;
    jobLockMs: number;
    /** The database admits this process only (PGlite). */
    soleProcess: boolean;
  },
  db: Database,
  logger?: DriverLogger,
  /** Told of every job run in this process (the job duration metrics). */
  observeJob?: JobObserver,
): AnyQueueDriver {
  const driver = openQueueDriver(config, db, logger);
  return observeJob ? observeJobs(driver, observeJob) : driver;
}

function openQueueDriver(
  config: Parameters<typeof createQueueDriver>[0],
  db: Database,
  logger?: DriverLogger,
): AnyQueueDriver {
  const stalls = { maxStalls: config.jobMaxStalls, lockMs: config.jobLockMs };
  if (config.redisUrl)
    return createBullmqQueue({
      url: config.redisUrl,
      prefix: config.redisPrefix,
      ...stalls,
      // Checked twice a lock's length: a dead process's job runs again within 1.5 locks.
      stalledIntervalMs: Math.ceil(config.jobLockMs / 2),
      logger,
    });
  return createEmbeddedQueue(db, { ...stalls, soleProcess: config.soleProcess, logger });
}
