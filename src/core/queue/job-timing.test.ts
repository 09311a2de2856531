import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedis } from '../../../test/database.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { deleteRedisKeys } from '../../../test/redis.js';
import type { DatabaseHandle } from '../db/client.js';
import { createQueueDriver } from './index.js';
import type { JobObserver } from './job-timing.js';

let database: DatabaseHandle;
const redis = testRedis();
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  if (redis) await deleteRedisKeys(redis.url, `${redis.prefix}-timing*`);
});

describe(`job timing on the ${redis ? 'BullMQ' : 'embedded'} driver`, () => {
  it('tells the observer of each try: completed, or error when the handler threw', async () => {
    const seen: Array<{ queue: string; outcome: string; seconds: number }> = [];
    const observe: JobObserver = (queue, outcome, seconds) => seen.push({ queue, outcome, seconds });
    const queue = createQueueDriver(
      {
        redisUrl: redis?.url ?? null,
        redisPrefix: `${redis?.prefix ?? 'x'}-timing`,
        jobMaxStalls: 2,
        jobLockMs: 30_000,
        soleProcess: !redis,
      },
      database.db,
      undefined,
      observe,
    );
    try {
      queue.process<{ fail: boolean }>('memory-extraction', async (job) => {
        if (job.data.fail) throw new Error('refused on purpose');
        return 'ok';
      });
      await queue.add('memory-extraction', 'timed', { fail: false }, { jobId: 'timing-ok' });
      await queue.add('memory-extraction', 'timed', { fail: true }, { jobId: 'timing-fail', attempts: 1 });
      await waitFor('both jobs to run', () => seen.length >= 2);
      expect(
        seen.map(({ seconds, ...rest }) => rest).sort((a, b) => a.outcome.localeCompare(b.outcome)),
      ).toEqual([
        { queue: 'memory-extraction', outcome: 'completed' },
        { queue: 'memory-extraction', outcome: 'error' },
      ]);
      expect(seen.every((s) => s.seconds >= 0)).toBe(true);
      expect(await queue.counts('memory-extraction')).toMatchObject({ completed: 1, failed: 1 });
    } finally {
      await queue.close();
    }
  });
});
