import { vi } from 'vitest';
import type { Container } from '../src/container.js';
import { createBullmqQueue } from '../src/core/queue/bullmq-queue.js';
import { createEmbeddedQueue } from '../src/core/queue/embedded-queue.js';
import type { QueueDriver, QueueName } from '../src/core/queue/queue.js';

/** How soon a lapsed lock shows, and how many stalls a job may have (JOB_MAX_STALLS). */
export interface StallSettings {
  maxStalls: number;
  /** How long a running job's lock lasts without renewal. */
  lockMs: number;
}

const silent = { warn: () => undefined, error: () => undefined };

/**
 * Another process on the container's queue store (its database, or its
 * Redis prefix), with a short lock so a job it abandons is taken again soon.
 * The caller closes it.
 */
export function openQueueProcess(container: Container, stalls: StallSettings): QueueDriver {
  const { config, db } = container;
  if (config.redisUrl) {
    return createBullmqQueue({
      url: config.redisUrl,
      prefix: config.redisPrefix,
      ...stalls,
      stalledIntervalMs: Math.ceil(stalls.lockMs / 4),
      logger: silent,
    });
  }
  return createEmbeddedQueue(db, { pollIntervalMs: 50, ...stalls, logger: silent });
}

/**
 * Plays `lives` processes that each take the next job of `queue` and die
 * while running it (the handler never ends; the process closes without
 * waiting, so the job's lock lapses): the first run of a poison job and
 * each rerun after a stall. Answers the ids of the jobs they took, in order.
 */
export async function dieWhileRunning(
  open: () => QueueDriver,
  queue: QueueName,
  lives: number,
): Promise<string[]> {
  const taken: string[] = [];
  for (let life = 0; life < lives; life++) {
    const doomed = open();
    doomed.process(queue, async (job) => {
      taken.push(job.id);
      await new Promise(() => undefined);
    });
    await vi.waitFor(
      () => {
        if (taken.length <= life) throw new Error(`life ${life} has not taken a job yet`);
      },
      { timeout: 15_000, interval: 25 },
    );
    await doomed.close({ graceMs: 0 });
  }
  return taken;
}
