import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { QUEUE_RETENTION_NAME, sweepFinishedJobs } from './queue-retention.js';
import { recurringTasks } from './schedules.js';

// No service workers: this file's own worker is the only one on its queue.
const ctx = useTestApp();
const silent = { info: () => undefined };
const waitFor = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

describe('queue retention', () => {
  it('deletes finished jobs past their retention, in batches, and leaves the rest', async () => {
    const { queue } = ctx.container;
    queue.process<{ fail: boolean }>('knowledge-ingest', async (job) => {
      if (job.data.fail) throw new Error('this job fails');
    });
    const done = await Promise.all(
      [1, 2, 3].map((n) => queue.add('knowledge-ingest', 'ok', { fail: false }, { jobId: `kept-${n}` })),
    );
    const failed = await queue.add(
      'knowledge-ingest',
      'bad',
      { fail: true },
      { jobId: 'fails', attempts: 1 },
    );
    const later = await queue.add('knowledge-ingest', 'later', { fail: false }, { delayMs: 3_600_000 });
    await waitFor(async () =>
      expect(await queue.counts('knowledge-ingest')).toMatchObject({ completed: 3, failed: 1, delayed: 1 }),
    );

    // Finished seconds ago: within any retention of an hour or more.
    const sweep = (completedHours: number, failedHours: number) =>
      sweepFinishedJobs({ queue, completedHours, failedHours, logger: silent, batch: 2 });
    expect(await sweep(1, 1)).toEqual({ completed: 0, failed: 0 });
    expect(await queue.getJob('knowledge-ingest', done[0]!)).toMatchObject({ state: 'completed' });

    // A retention of zero: every completed job is past it (two batches of two); the failed one is kept.
    expect(await sweep(0, 1)).toEqual({ completed: 3, failed: 0 });
    for (const id of done) expect(await queue.getJob('knowledge-ingest', id)).toBeNull();
    expect(await queue.getJob('knowledge-ingest', failed)).toMatchObject({ state: 'failed' });

    expect(await sweep(0, 0)).toEqual({ completed: 0, failed: 1 });
    expect(await queue.getJob('knowledge-ingest', failed)).toBeNull();
    // Jobs still to run are never the sweep's.
    expect(await queue.getJob('knowledge-ingest', later)).toMatchObject({ state: 'delayed' });
    // A job id freed by the sweep can be used again.
    expect(await queue.add('knowledge-ingest', 'ok', { fail: false }, { jobId: done[0]! })).toBe(done[0]);
    await waitFor(async () =>
      expect(await queue.getJob('knowledge-ingest', done[0]!)).toMatchObject({ state: 'completed' }),
    );
  });

  it('is one of the recurring tasks, with the configured retention', () => {
    const task = recurringTasks(ctx.container).find((t) => t.name === QUEUE_RETENTION_NAME);
    expect(task?.everyMs).toBe(60 * 60_000);
    expect(ctx.container.config.queueCompletedRetentionHours).toBe(168);
    expect(ctx.container.config.queueFailedRetentionHours).toBe(720);
  });
});
