import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedis } from '../../test/database.js';
import { waitFor } from '../../test/pipeline-factories.js';
import type { DatabaseHandle } from './db/client.js';
import { createKeyValue } from './kv/index.js';
import type { KeyValue } from './kv/kv.js';
import { createScheduler } from './scheduler.js';

const HOUR = 3_600_000;
let database: DatabaseHandle;
const stores: KeyValue[] = [];
const redis = testRedis();

/** A replica's own key-value client: on Redis its own connection to the same prefix. */
function replicaStore(): KeyValue {
  const kv = createKeyValue(
    { redisUrl: redis?.url ?? null, redisPrefix: redis?.prefix ?? 'unused' },
    database.db,
  );
  stores.push(kv);
  return kv;
}

function collectingLogger() {
  const warnings: Array<{ object: object; message?: string }> = [];
  return {
    warnings,
    warn: (object: object, message?: string) => void warnings.push({ object, message }),
    error: (object: object, message?: string) => void warnings.push({ object, message }),
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const kv of stores) await kv.close();
  await database.close();
});

describe('scheduler', () => {
  it('runs each slot on exactly one of two replicas, whichever ticks first', async () => {
    const runs: Array<{ replica: string; slotStart: number }> = [];
    const name = `job-${randomBytes(4).toString('hex')}`;
    const replicas = ['a', 'b'].map((replica) => {
      const scheduler = createScheduler({ kv: replicaStore(), logger: collectingLogger() });
      scheduler.every(name, HOUR, async (slotStart) => void runs.push({ replica, slotStart }));
      return scheduler;
    });
    const base = (Math.floor(Date.now() / HOUR) + 10) * HOUR;
    const slots = [0, 1, 2, 3, 4].map((n) => base + n * HOUR);
    // Both replicas tick every slot at the same moment, twice over.
    const answers = await Promise.all(
      slots.flatMap((slot) => [
        replicas[0]!.runSlot(name, slot + 5),
        replicas[1]!.runSlot(name, slot + 7),
        replicas[1]!.runSlot(name, slot + HOUR - 1),
      ]),
    );
    expect(answers.filter(Boolean)).toHaveLength(slots.length);
    expect(runs.map((run) => run.slotStart).sort()).toEqual(slots);
    for (const replica of replicas) replica.close();
  });

  it('runs a task at start when asked, and logs a failing task instead of throwing', async () => {
    const logger = collectingLogger();
    const scheduler = createScheduler({ kv: replicaStore(), logger });
    const ran: number[] = [];
    const suffix = randomBytes(4).toString('hex');
    scheduler.every(`ok-${suffix}`, HOUR, async (slotStart) => void ran.push(slotStart), {
      runAtStart: true,
    });
    scheduler.every(
      `broken-${suffix}`,
      HOUR,
      async () => {
        throw new Error('the sweep failed');
      },
      { runAtStart: true },
    );
    scheduler.every(`later-${suffix}`, HOUR, async () => void ran.push(-1));
    scheduler.start();
    await waitFor('the task run at start', () => ran.length === 1);
    await waitFor('the failure logged', () => logger.warnings.length === 1);
    expect(ran[0]).toBe(Math.floor(Date.now() / HOUR) * HOUR);
    expect(logger.warnings[0]).toMatchObject({
      object: { task: `broken-${suffix}` },
      message: 'scheduler: a recurring task failed',
    });
    expect(scheduler.names()).toEqual([`ok-${suffix}`, `broken-${suffix}`, `later-${suffix}`]);
    scheduler.close();
  });

  it('refuses a name twice and a period that is not a positive whole number of milliseconds', async () => {
    const scheduler = createScheduler({ kv: replicaStore(), logger: collectingLogger() });
    scheduler.every('twice', HOUR, async () => undefined);
    expect(() => scheduler.every('twice', HOUR, async () => undefined)).toThrow(/scheduled already/);
    expect(() => scheduler.every('zero', 0, async () => undefined)).toThrow(/positive integer/);
    expect(() => scheduler.every('fraction', 1.5, async () => undefined)).toThrow(/positive integer/);
    await expect(scheduler.runSlot('unknown')).rejects.toThrow(/no scheduled task/);
  });
});
