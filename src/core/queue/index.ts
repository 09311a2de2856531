import type { Database } from '../db/client.js';
import type { DriverLogger } from '../logger.js';
import { type BullmqQueueDriver, createBullmqQueue } from './bullmq-queue.js';
import { createEmbeddedQueue, type EmbeddedQueueDriver } from './embedded-queue.js';

export * from './queue.js';
export type { BullmqQueueDriver, EmbeddedQueueDriver };

/** Either driver; narrow on `kind` to reach `bullQueues()`. */
export type AnyQueueDriver = EmbeddedQueueDriver | BullmqQueueDriver;

/**
 * The queue driver the configuration asks for: BullMQ when REDIS_URL is set,
 * the embedded driver (jobs in the database) otherwise.
 */
export function createQueueDriver(
  config: { redisUrl: string | null; redisPrefix: string; jobMaxStalls: number },
  db: Database,
  logger?: DriverLogger,
): AnyQueueDriver {
  const maxStalls = config.jobMaxStalls;
  if (config.redisUrl)
    return createBullmqQueue({ url: config.redisUrl, prefix: config.redisPrefix, maxStalls, logger });
  return createEmbeddedQueue(db, { maxStalls, logger });
}
