import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testRedis } from '../../../test/database.js';
import { explainPlan } from '../../../test/plans.js';
import type { StallSettings } from '../../../test/queue-processes.js';
import { deleteRedisKeys } from '../../../test/redis.js';
import type { DatabaseHandle } from '../db/client.js';
import { queueJobs } from '../db/schema/drivers.js';
import { createBullmqQueue } from './bullmq-queue.js';
import { createEmbeddedQueue } from './embedded-queue.js';
import { claimableJobs, createQueueJobsRepository } from './embedded-queue.repository.js';
import { type Job, type QueueDriver, stalledOutReason } from './queue.js';

let database: DatabaseHandle;
const redis = testRedis();
const silent = { warn: () => undefined, error: () => undefined };
const opened: QueueDriver[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((driver) => driver.close()));
});
afterAll(async () => {
  await database.close();
  if (redis) await deleteRedisKeys(redis.url, `${redis.prefix}*`);
});

interface Implementation {
  name: string;
  /** A fresh scope for one test: an empty table, or a Redis prefix of its own. */
  scope(): Promise<string>;
  /**
   * A driver on the scope; two drivers on one scope play two processes (or a restart).
   * `stalls` makes a lapsed lock show soon, so a job whose process died is taken again quickly.
   */
  open(scope: string, stalls?: StallSettings): QueueDriver;
}

let scopes = 0;
const implementations: Implementation[] = [
  {
    name: 'embedded',
    async scope() {
      await database.db.delete(queueJobs);
      return 'table';
    },
    open(_scope, stalls) {
      return track(createEmbeddedQueue(database.db, { pollIntervalMs: 50, ...stalls, logger: silent }));
    },
  },
];
if (redis) {
  implementations.push({
    name: 'bullmq',
    async scope() {
      scopes += 1;
      return `${redis.prefix}-q${scopes}`;
    },
    open(prefix, stalls) {
      const checks = stalls ? { stalledIntervalMs: Math.ceil(stalls.lockMs / 4) } : {};
      return track(createBullmqQueue({ url: redis.url, prefix, ...stalls, ...checks, logger: silent }));
    },
  });
}

function track(driver: QueueDriver): QueueDriver {
  opened.push(driver);
  return driver;
}

/** Counts a worker's handlers running at once: `around` wraps each handler's work. */
function concurrencyProbe() {
  const probe = {
    running: 0,
    maxRunning: 0,
    async around(work: () => Promise<void>): Promise<void> {
      probe.running += 1;
      probe.maxRunning = Math.max(probe.maxRunning, probe.running);
      await work();
      probe.running -= 1;
    },
  };
  return probe;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const waitFor = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

for (const impl of implementations) {
  describe(`QueueDriver contract: ${impl.name}`, () => {
    it('runs an added job once and reports it completed', async () => {
      const queue = impl.open(await impl.scope());
      const seen: Job[] = [];
      queue.process('agent-tasks', async (job) => {
        seen.push(job);
      });
      const id = await queue.add('agent-tasks', 'run', { taskId: 't1' });
      await waitFor(async () => expect((await queue.getJob('agent-tasks', id))?.state).toBe('completed'));
      expect(seen).toEqual([
        { id, queue: 'agent-tasks', name: 'run', data: { taskId: 't1' }, attemptsMade: 0, maxAttempts: 3 },
      ]);
      expect(await queue.getJob('agent-tasks', 'no-such-job')).toBeNull();
      await queue.ping();
    });

    it('treats a repeated jobId as a no-op and generates distinct ids otherwise', async () => {
      const queue = impl.open(await impl.scope());
      const first = await queue.add('chanA-inbound', 'message', { n: 1 }, { jobId: 'msg-42' });
      const again = await queue.add('chanA-inbound', 'message', { n: 2 }, { jobId: 'msg-42' });
      expect([first, again]).toEqual(['msg-42', 'msg-42']);
      const a = await queue.add('chanA-inbound', 'message', {});
      const b = await queue.add('chanA-inbound', 'message', {});
      expect(a).not.toBe(b);
      await expect(queue.add('chanA-inbound', 'message', {}, { jobId: 'a:b' })).rejects.toThrow();

      const data: unknown[] = [];
      queue.process('chanA-inbound', async (job) => {
        data.push(job.data);
      });
      await waitFor(async () => expect((await queue.counts('chanA-inbound')).completed).toBe(3));
      // Added again after it ran: still the one job, not run twice. A marker added after it runs
      // once the repeat would have (one worker, first in first out), so its completion is the moment to look.
      expect(await queue.add('chanA-inbound', 'message', { n: 3 }, { jobId: 'msg-42' })).toBe('msg-42');
      await queue.add('chanA-inbound', 'marker', { marker: true });
      await waitFor(async () => expect((await queue.counts('chanA-inbound')).completed).toBe(4));
      expect(await queue.counts('chanA-inbound')).toMatchObject({ waiting: 0, delayed: 0, completed: 4 });
      expect(data.filter((d) => (d as { n?: number }).n !== undefined)).toEqual([{ n: 1 }]);
    });

    it('retries with exponential backoff, then fails and calls onFailed once', async () => {
      const queue = impl.open(await impl.scope());
      const tries: Array<{ attemptsMade: number }> = [];
      const failures: Array<{ job: Job; message: string }> = [];
      queue.process(
        'chanB-outbound',
        async (job) => {
          tries.push({ attemptsMade: job.attemptsMade });
          if (job.name === 'flaky' && job.attemptsMade > 0) return;
          throw new Error(`boom ${job.name}`);
        },
        { onFailed: (job, error) => void failures.push({ job, message: error.message }) },
      );
      const id = await queue.add('chanB-outbound', 'send', { n: 1 }, { attempts: 3, backoffMs: 400 });
      // Between tries the job waits out its backoff as a delayed job, not as a waiting one.
      await waitFor(async () => expect((await queue.getJob('chanB-outbound', id))?.state).toBe('delayed'));
      expect(tries.map((t) => t.attemptsMade)).toEqual([0]);
      await waitFor(async () => expect((await queue.getJob('chanB-outbound', id))?.state).toBe('failed'));
      await waitFor(() => expect(failures).toHaveLength(1));
      expect(tries.map((t) => t.attemptsMade)).toEqual([0, 1, 2]);
      expect(failures[0]?.message).toBe('boom send');
      expect(failures[0]?.job).toMatchObject({ id, attemptsMade: 3, maxAttempts: 3, data: { n: 1 } });
      expect(await queue.getJob('chanB-outbound', id)).toMatchObject({
        failedReason: 'boom send',
        attemptsMade: 3,
      });

      const flaky = await queue.add('chanB-outbound', 'flaky', {}, { attempts: 2, backoffMs: 10 });
      await waitFor(async () =>
        expect((await queue.getJob('chanB-outbound', flaky))?.state).toBe('completed'),
      );
      expect(failures).toHaveLength(1);
    });

    it('runs no more jobs at once than the concurrency', async () => {
      const queue = impl.open(await impl.scope());
      for (let i = 0; i < 8; i++) await queue.add('knowledge-ingest', 'ingest', { i });
      const probe = concurrencyProbe();
      // The first jobs hold until three run at once; a driver that ignored the limit would start more meanwhile.
      const threeRunning = deferred();
      queue.process(
        'knowledge-ingest',
        () =>
          probe.around(async () => {
            if (probe.running === 3) threeRunning.resolve();
            await threeRunning.promise;
            await Promise.resolve();
          }),
        { concurrency: 3 },
      );
      await waitFor(async () => expect((await queue.counts('knowledge-ingest')).completed).toBe(8));
      expect(probe.maxRunning).toBe(3);
    });

    it('keeps to the concurrency when jobs come while the worker runs', async () => {
      const queue = impl.open(await impl.scope());
      const probe = concurrencyProbe();
      const release = deferred();
      queue.process('knowledge-ingest', () => probe.around(() => release.promise), { concurrency: 2 });
      // Added at once to a worker with free slots, then to a full one: the rest wait their turn.
      const ids = await Promise.all(
        Array.from({ length: 7 }, (_, i) => queue.add('knowledge-ingest', 'ingest', { i })),
      );
      await waitFor(async () => expect((await queue.counts('knowledge-ingest')).active).toBe(2));
      expect(probe.running).toBe(2);
      release.resolve();
      await waitFor(async () => expect((await queue.counts('knowledge-ingest')).completed).toBe(7));
      expect(probe.maxRunning).toBe(2);
      for (const id of ids) expect((await queue.getJob('knowledge-ingest', id))?.state).toBe('completed');
    });

    it('keeps to the concurrency while jobs finish and come at once', async () => {
      const scope = await impl.scope();
      const queue = impl.open(scope);
      // Jobs another process added: the worker's first claim takes them while this process adds more.
      const elsewhere = impl.open(scope);
      for (let i = 0; i < 4; i++) await elsewhere.add('knowledge-ingest', 'ingest', { i });
      const probe = concurrencyProbe();
      queue.process('knowledge-ingest', () => probe.around(() => sleep(2)), { concurrency: 2 });
      // Bursts of adds land while claims and completions are under way.
      for (let burst = 0; burst < 4; burst++) {
        await Promise.all(
          Array.from({ length: 15 }, (_, i) => queue.add('knowledge-ingest', 'ingest', { i })),
        );
        await sleep(5);
      }
      await waitFor(async () => expect((await queue.counts('knowledge-ingest')).completed).toBe(64));
      expect(probe.maxRunning).toBe(2);
    });

    it('does not run a delayed job before its delay', async () => {
      const queue = impl.open(await impl.scope());
      const id = await queue.add('memory-extraction', 'extract', { delayed: true }, { delayMs: 1500 });
      expect((await queue.getJob('memory-extraction', id))?.state).toBe('delayed');
      expect((await queue.counts('memory-extraction')).delayed).toBe(1);
      const ran: unknown[] = [];
      queue.process('memory-extraction', async (job) => {
        ran.push(job.data);
      });
      // A job added later without a delay runs first: the delayed one waits its turn in time, not in line.
      const marker = await queue.add('memory-extraction', 'extract', { marker: true });
      await waitFor(async () =>
        expect((await queue.getJob('memory-extraction', marker))?.state).toBe('completed'),
      );
      expect(ran[0]).toEqual({ marker: true });
      await waitFor(async () =>
        expect((await queue.getJob('memory-extraction', id))?.state).toBe('completed'),
      );
      expect(ran).toEqual([{ marker: true }, { delayed: true }]);
    });

    it('counts jobs by state', async () => {
      const queue = impl.open(await impl.scope());
      const held = deferred();
      const holding = deferred();
      await queue.add('chanB-inbound', 'ok', {});
      await queue.add('chanB-inbound', 'bad', {}, { attempts: 1 });
      await queue.add('chanB-inbound', 'hold', {});
      await queue.add('chanB-inbound', 'later', {}, { delayMs: 60_000 });
      expect(await queue.counts('chanB-inbound')).toEqual({
        waiting: 3,
        delayed: 1,
        active: 0,
        completed: 0,
        failed: 0,
      });
      queue.process(
        'chanB-inbound',
        async (job) => {
          if (job.name === 'bad') throw new Error('bad');
          if (job.name === 'hold') {
            holding.resolve();
            await held.promise;
          }
        },
        { concurrency: 3 },
      );
      await holding.promise;
      await waitFor(async () =>
        expect(await queue.counts('chanB-inbound')).toEqual({
          waiting: 0,
          delayed: 1,
          active: 1,
          completed: 1,
          failed: 1,
        }),
      );
      held.resolve();
      await waitFor(async () =>
        expect(await queue.counts('chanB-inbound')).toMatchObject({ active: 0, completed: 2 }),
      );
    });

    it('close waits for the job in flight', async () => {
      const scope = await impl.scope();
      const queue = impl.open(scope);
      const started = deferred();
      let finished = false;
      const id = await queue.add('chanA-outbound', 'send', {});
      queue.process('chanA-outbound', async () => {
        started.resolve();
        await sleep(200);
        finished = true;
      });
      await started.promise;
      await queue.close();
      expect(finished).toBe(true);
      // The completion was recorded before close resolved.
      expect((await impl.open(scope).getJob('chanA-outbound', id))?.state).toBe('completed');
    });

    it('lists jobs by state newest first with paging, retries, cleans and removes them', async () => {
      const queue = impl.open(await impl.scope());
      const failed = await queue.add('knowledge-ingest', 'bad', { n: 0 }, { attempts: 1 });
      const done: string[] = [];
      for (let i = 1; i <= 3; i++) done.push(await queue.add('knowledge-ingest', 'ok', { n: i }));
      queue.process('knowledge-ingest', async (job) => {
        if (job.name === 'bad') throw new Error('bad input');
        return { ok: (job.data as { n: number }).n };
      });
      await waitFor(async () =>
        expect(await queue.counts('knowledge-ingest')).toMatchObject({ completed: 3, failed: 1 }),
      );
      const later = await queue.add('knowledge-ingest', 'later', {}, { delayMs: 60_000 });

      const completed = await queue.listJobs('knowledge-ingest', ['completed'], 0, 10);
      expect(completed.map((j) => j.id).sort()).toEqual([...done].sort());
      expect(completed[0]).toMatchObject({ state: 'completed', queue: 'knowledge-ingest', name: 'ok' });
      expect(completed.every((j) => j.finishedAt !== null && j.addedAt > 0)).toBe(true);
      expect(completed.map((j) => j.result)).toEqual(
        expect.arrayContaining([{ ok: 1 }, { ok: 2 }, { ok: 3 }]),
      );
      const pages = [
        ...(await queue.listJobs('knowledge-ingest', ['completed'], 0, 2)),
        ...(await queue.listJobs('knowledge-ingest', ['completed'], 2, 2)),
      ];
      expect(pages.map((j) => j.id).sort()).toEqual([...done].sort());
      expect(await queue.listJobs('knowledge-ingest', ['failed', 'delayed'], 0, 10)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: failed, state: 'failed', failedReason: 'bad input' }),
          expect.objectContaining({ id: later, state: 'delayed', finishedAt: null }),
        ]),
      );
      expect(await queue.listJobs('knowledge-ingest', ['waiting'], 0, 10)).toEqual([]);
      expect(await queue.inspectJob('knowledge-ingest', failed)).toMatchObject({
        id: failed,
        state: 'failed',
        data: { n: 0 },
        result: null,
      });
      expect(await queue.inspectJob('knowledge-ingest', 'no-such-job')).toBeNull();

      // Retry: a failed job runs again from a clean slate; a delayed one is not retriable.
      expect(await queue.retryJob('knowledge-ingest', later)).toBe(false);
      expect(await queue.retryJob('knowledge-ingest', 'no-such-job')).toBe(false);
      expect(await queue.retryJob('knowledge-ingest', failed)).toBe(true);
      await waitFor(async () =>
        expect(await queue.getJob('knowledge-ingest', failed)).toMatchObject({
          state: 'failed',
          attemptsMade: 1,
        }),
      );
      expect(await queue.retryJob('knowledge-ingest', done[0]!)).toBe(true);
      await waitFor(async () => expect((await queue.counts('knowledge-ingest')).completed).toBe(3));

      // Clean: nothing is young enough to survive a zero grace; a long grace keeps everything.
      expect(await queue.cleanJobs('knowledge-ingest', 'completed', 3_600_000)).toBe(0);
      // A limit bounds one call; the next takes the rest.
      expect(await queue.cleanJobs('knowledge-ingest', 'completed', 0, 2)).toBe(2);
      expect(await queue.cleanJobs('knowledge-ingest', 'completed', 0)).toBe(1);
      expect(await queue.counts('knowledge-ingest')).toMatchObject({ completed: 0, failed: 1, delayed: 1 });
      expect(await queue.removeJob('knowledge-ingest', later)).toBe(true);
      expect(await queue.removeJob('knowledge-ingest', later)).toBe(false);
      expect(await queue.getJob('knowledge-ingest', later)).toBeNull();
    });

    it('fails a job for good once its process died with it more than JOB_MAX_STALLS times, and runs it no more', async () => {
      const scope = await impl.scope();
      const stalls: StallSettings = { maxStalls: 2, lockMs: 1000 };
      const first = impl.open(scope, stalls);
      // One try only: a stall is not a try, so the job still runs after each death.
      const poison = await first.add('agent-tasks', 'run', { poison: true }, { attempts: 1 });
      const runs: Array<{ life: number; attemptsMade: number }> = [];
      // Each life is a process that takes the job and dies while running it (its handler never
      // ends; close abandons it at once): the first run and JOB_MAX_STALLS reruns after a lapsed lock.
      for (let life = 0; life <= stalls.maxStalls; life++) {
        const doomed = life === 0 ? first : impl.open(scope, stalls);
        doomed.process('agent-tasks', async (job) => {
          runs.push({ life, attemptsMade: job.attemptsMade });
          await new Promise(() => undefined);
        });
        await waitFor(() => expect(runs).toHaveLength(life + 1));
        await doomed.close({ graceMs: 0 });
      }
      // The next process finds it abandoned once too often and fails it without running it.
      const survivor = impl.open(scope, stalls);
      const failures: Array<{ job: Job; message: string }> = [];
      survivor.process(
        'agent-tasks',
        async (job) => {
          runs.push({ life: -1, attemptsMade: job.attemptsMade });
        },
        { onFailed: (job, error) => void failures.push({ job, message: error.message }) },
      );
      await waitFor(() => expect(failures).toHaveLength(1));
      const reason = stalledOutReason(stalls.maxStalls);
      expect(reason).toBe(
        'the job was abandoned 3 times by a process that died or stalled while running it (JOB_MAX_STALLS=2)',
      );
      expect(failures[0]).toMatchObject({ job: { id: poison, data: { poison: true } }, message: reason });
      expect(await survivor.getJob('agent-tasks', poison)).toMatchObject({
        state: 'failed',
        failedReason: reason,
      });
      expect(await survivor.listJobs('agent-tasks', ['failed'], 0, 10)).toEqual([
        expect.objectContaining({ id: poison, failedReason: reason }),
      ]);
      // No restart loop: a job added after it runs, and the poison job never does again.
      const marker = await survivor.add('agent-tasks', 'run', { marker: true });
      await waitFor(async () =>
        expect((await survivor.getJob('agent-tasks', marker))?.state).toBe('completed'),
      );
      expect(runs).toEqual([
        { life: 0, attemptsMade: 0 },
        { life: 1, attemptsMade: 0 },
        { life: 2, attemptsMade: 0 },
        { life: -1, attemptsMade: 0 },
      ]);
      expect((await survivor.getJob('agent-tasks', poison))?.state).toBe('failed');

      // Run again from the dashboard, it starts from a clean slate: not failed at once for its old stalls.
      expect(await survivor.retryJob('agent-tasks', poison)).toBe(true);
      await waitFor(async () =>
        expect((await survivor.getJob('agent-tasks', poison))?.state).toBe('completed'),
      );
      expect(failures).toHaveLength(1);
    });

    it('close with a grace period waits for a job that finishes within it', async () => {
      const scope = await impl.scope();
      const queue = impl.open(scope);
      const started = deferred();
      const id = await queue.add('chanA-outbound', 'send', {});
      queue.process('chanA-outbound', async () => {
        started.resolve();
        await sleep(100);
      });
      await started.promise;
      await queue.close({ graceMs: 20_000 });
      expect((await impl.open(scope).getJob('chanA-outbound', id))?.state).toBe('completed');
    });

    it('runs a job added before a restart', async () => {
      const scope = await impl.scope();
      const before = impl.open(scope);
      const id = await before.add('agent-tasks', 'run', { taskId: 'kept' });
      await before.close();

      const after = impl.open(scope);
      const seen: unknown[] = [];
      after.process('agent-tasks', async (job) => {
        seen.push(job.data);
      });
      await waitFor(async () => expect((await after.getJob('agent-tasks', id))?.state).toBe('completed'));
      expect(seen).toEqual([{ taskId: 'kept' }]);
    });
  });
}

describe('embedded queue driver', () => {
  it('claims the oldest due jobs by reading them in order, not by sorting the backlog', async () => {
    await database.db.delete(queueJobs);
    await database.db.execute(sql`INSERT INTO queue_jobs (queue, job_id, name, data, state, max_attempts, backoff_ms, run_at)
      SELECT 'knowledge-ingest', 'backlog-' || g, 'run', '{}'::jsonb, CASE WHEN g % 2 = 0 THEN 'waiting' ELSE 'delayed' END,
        1, 0, now() - interval '1 hour' + g * interval '1 millisecond'
      FROM generate_series(1, 2000) AS g`);
    const plan = await explainPlan(
      database.db,
      sql`SELECT * FROM ${claimableJobs('knowledge-ingest', 2)} AS c`,
    );
    expect(plan).toMatch(/queue_jobs_due_idx/);
    const claimed = await createQueueJobsRepository(database.db, 30_000).claim('knowledge-ingest', 2);
    expect(claimed.map((job) => job.jobId).sort()).toEqual(['backlog-1', 'backlog-2']);
    expect(claimed.every((job) => job.state === 'active')).toBe(true);
  });

  it('takes again an active job whose lock lapsed (crashed worker)', async () => {
    await database.db.delete(queueJobs);
    const queue = track(createEmbeddedQueue(database.db, { pollIntervalMs: 50, logger: silent }));
    const id = await queue.add('agent-tasks', 'run', {});
    await database.db
      .update(queueJobs)
      .set({ state: 'active', lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(queueJobs.jobId, id));
    queue.process('agent-tasks', async () => undefined);
    await waitFor(async () => expect((await queue.getJob('agent-tasks', id))?.state).toBe('completed'));
  });

  it('as the sole process, takes back at once the jobs a dead process left active, counting a stall', async () => {
    await database.db.delete(queueJobs);
    const queue = track(
      createEmbeddedQueue(database.db, {
        pollIntervalMs: 50,
        lockMs: 600_000,
        soleProcess: true,
        logger: silent,
      }),
    );
    const id = await queue.add('agent-tasks', 'run', {});
    // Claimed a moment ago by the process that held the data directory before: its lock runs for minutes.
    await database.db
      .update(queueJobs)
      .set({ state: 'active', lockedUntil: new Date(Date.now() + 600_000) })
      .where(eq(queueJobs.jobId, id));
    queue.process('agent-tasks', async () => undefined);
    await waitFor(async () => expect((await queue.getJob('agent-tasks', id))?.state).toBe('completed'));
    const [row] = await database.db.select().from(queueJobs).where(eq(queueJobs.jobId, id));
    expect(row?.stalls).toBe(1);
  });

  it('counts a lapsed lock as a stall, not a try, and fails a job past JOB_MAX_STALLS without running it', async () => {
    await database.db.delete(queueJobs);
    const queue = track(
      createEmbeddedQueue(database.db, { pollIntervalMs: 50, maxStalls: 2, logger: silent }),
    );
    const rerun = await queue.add('memory-extraction', 'run', {}, { attempts: 1 });
    const poison = await queue.add('memory-extraction', 'run', {}, { attempts: 3 });
    const lapsed = { state: 'active', lockedUntil: new Date(Date.now() - 1000) };
    await database.db
      .update(queueJobs)
      .set({ ...lapsed, stalls: 1 })
      .where(eq(queueJobs.jobId, rerun));
    await database.db
      .update(queueJobs)
      .set({ ...lapsed, stalls: 2 })
      .where(eq(queueJobs.jobId, poison));
    const ran: Array<{ id: string; attemptsMade: number }> = [];
    const failed: Array<{ id: string; message: string }> = [];
    queue.process(
      'memory-extraction',
      async (job) => {
        ran.push({ id: job.id, attemptsMade: job.attemptsMade });
      },
      { onFailed: (job, error) => void failed.push({ id: job.id, message: error.message }) },
    );
    await waitFor(async () => {
      expect((await queue.getJob('memory-extraction', rerun))?.state).toBe('completed');
      expect((await queue.getJob('memory-extraction', poison))?.state).toBe('failed');
    });
    // Its one try was not used up by the stall: it ran.
    expect(ran).toEqual([{ id: rerun, attemptsMade: 0 }]);
    expect(failed).toEqual([{ id: poison, message: stalledOutReason(2) }]);
    const rows = await database.db
      .select({ jobId: queueJobs.jobId, stalls: queueJobs.stalls, attemptsMade: queueJobs.attemptsMade })
      .from(queueJobs)
      .where(eq(queueJobs.queue, 'memory-extraction'));
    expect(rows).toEqual(
      expect.arrayContaining([
        { jobId: rerun, stalls: 2, attemptsMade: 0 },
        { jobId: poison, stalls: 3, attemptsMade: 0 },
      ]),
    );
  });

  it('polls for the jobs other processes add', async () => {
    await database.db.delete(queueJobs);
    const worker = track(createEmbeddedQueue(database.db, { pollIntervalMs: 20, logger: silent }));
    const elsewhere = track(createEmbeddedQueue(database.db, { pollIntervalMs: 20, logger: silent }));
    worker.process('chanB-inbound', async () => undefined);
    const local = await worker.add('chanB-inbound', 'update', {});
    await waitFor(async () => expect((await worker.getJob('chanB-inbound', local))?.state).toBe('completed'));
    // A process without a worker on the queue only inserts; the idle worker finds the job by polling.
    const remote = await elsewhere.add('chanB-inbound', 'update', {});
    await waitFor(async () =>
      expect((await worker.getJob('chanB-inbound', remote))?.state).toBe('completed'),
    );
  });

  it('renews the lock of a slow job so a second poller does not take it', async () => {
    await database.db.delete(queueJobs);
    const runs: string[] = [];
    const one = track(createEmbeddedQueue(database.db, { pollIntervalMs: 20, lockMs: 90, logger: silent }));
    const two = track(createEmbeddedQueue(database.db, { pollIntervalMs: 20, lockMs: 90, logger: silent }));
    const slow = async (job: Job) => {
      runs.push(job.id);
      await sleep(400);
    };
    one.process('knowledge-ingest', slow);
    two.process('knowledge-ingest', slow);
    const id = await one.add('knowledge-ingest', 'ingest', {});
    await waitFor(async () => expect((await one.getJob('knowledge-ingest', id))?.state).toBe('completed'));
    expect(runs).toEqual([id]);
  });
});
