import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../core/db/client.js';
import { groupCommit } from '../../core/group-commit.js';
import type { DriverLogger } from '../../core/logger.js';
import type { QueueDriver, QueueName } from '../../core/queue/queue.js';
import { createInboxRepository, type InboxEntry } from './inbox.repository.js';

export type { InboxEntry } from './inbox.repository.js';

/** How old an unsettled entry must be before the sweep looks at it: its own enqueue normally settles it. */
export const INBOX_GRACE_MS = 3000;
/**
 * How long an item waits for a sender's earlier item, most often being
 * handled by another consumer at that moment, before it handles that one
 * itself (its job may be queued behind this one, lost, or in a process that died).
 */
export const TURN_WAIT_MS = 300;
const TURN_POLL_MS = 25;
/** Queue adds under way past which `accept` waits for its own even when asked not to. */
export const MAX_UNAWAITED_ADDS = 1000;
/** Entries one sweep looks at; a longer backlog is taken over the next sweeps. */
const SWEEP_BATCH = 500;
/** Settled entries are kept this long (a replay of an old delivery is still recognised by its message row). */
const SETTLED_RETENTION_MS = 24 * 3600 * 1000;

export interface ChannelInboxDeps {
  db: Database;
  queue: QueueDriver;
  logger: DriverLogger;
}

/**
 * The durable inbox of the channels: a platform item is written to the
 * database before the platform is told it arrived, then its job is
 * enqueued. The queue is only a way to wake work up: when a job is lost
 * (Redis restarted empty, a process died between the commit and the
 * enqueue) the sweep, every few seconds in the worker processes, enqueues
 * it again under the same job id; the intake recognises a message it has
 * already stored, so a repeat is harmless.
 */
export function createChannelInbox(deps: ChannelInboxDeps) {
  const { queue, logger } = deps;
  const repository = createInboxRepository(deps.db);

  // Requests that arrive while an insert runs share the next one: under load
  // the webhook pays one statement and one commit for many deliveries
  // (core/group-commit.ts).
  const keep = groupCommit<readonly InboxEntry[], true>(async (batches) => {
    await repository.insert(batches.flat());
    return batches.map(() => true as const);
  });

  const enqueue = (entry: InboxEntry) =>
    queue.add(entry.queue, entry.jobName, entry.payload, { jobId: entry.jobId, ...entry.options });
  /** Queue adds started by `accept` and not finished yet. */
  let addsUnderWay = 0;

  const inbox = {
    name: 'channel-inbox-sweep',
    everyMs: 5000,

    /**
     * Keeps the entries (one statement, shared with the calls made while
     * the previous one ran; a repeated item is kept once), then enqueues
     * their jobs. A queue that fails is logged, not thrown: the entries are
     * kept and the sweep enqueues them.
     * @param options.waitForQueue false: answer once the entries are
     *   committed, the adds still under way (the webhook's 200 does not wait
     *   for Redis), unless {@link MAX_UNAWAITED_ADDS} adds already are: then
     *   it answers after its own, so a stalled queue slows the caller down
     *   instead of piling adds up in memory.
     * @throws when the database cannot keep them (the caller answers 503: the platform delivers again).
     */
    async accept(entries: readonly InboxEntry[], options: { waitForQueue?: boolean } = {}): Promise<void> {
      if (entries.length === 0) return;
      await keep(entries);
      const backlog = addsUnderWay;
      addsUnderWay += entries.length;
      const adding = Promise.allSettled(entries.map(enqueue)).then((outcomes) => {
        addsUnderWay -= entries.length;
        const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
        if (failed.length > 0) {
          logger.warn(
            { err: failed[0]!.reason, jobs: failed.length },
            'inbox: kept, but the queue did not take the jobs; the sweep will enqueue them',
          );
        }
      });
      if (options.waitForQueue !== false || backlog >= MAX_UNAWAITED_ADDS) await adding;
    },

    /**
     * Handles one item (`own`) after the same sender's earlier items in the
     * platform's order, so that consumers running several items at once, in
     * one process or several, still store a sender's messages in the order
     * the platform sent them; then marks it taken. An earlier item still
     * untaken after {@link TURN_WAIT_MS} is handled here first (`earlier`,
     * with its kept payload) rather than waited for: its own job may sit
     * behind this one in the queue, be lost with Redis, or belong to a process
     * that died, and a consumer slot spent waiting would hold up every other
     * sender. Handling an item twice is harmless (the intake recognises a
     * message it stored). An earlier item that fails here is left to its own
     * job. When `own` throws the item is not taken: its retry keeps its place.
     */
    async takeInOrder<T>(
      queue: QueueName,
      jobId: string,
      own: () => Promise<T>,
      earlier: (payload: unknown, jobId: string) => Promise<unknown>,
    ): Promise<T> {
      const deadline = Date.now() + TURN_WAIT_MS;
      let waiting = await repository.earlierUntaken(queue, jobId);
      while (waiting.length > 0 && Date.now() < deadline) {
        await sleep(TURN_POLL_MS);
        waiting = await repository.earlierUntaken(queue, jobId);
      }
      for (const entry of waiting) {
        try {
          await earlier(entry.payload, entry.jobId);
          await repository.markTaken(queue, entry.jobId);
        } catch (error) {
          logger.warn(
            { err: error, queue, jobId: entry.jobId },
            'inbox: an earlier item of the sender failed here; its own job will retry it',
          );
          break;
        }
      }
      const result = await own();
      await repository.markTaken(queue, jobId);
      return result;
    },

    /** Marks an item taken without running it (its job failed for good): later items stop waiting for it. */
    markTaken: (queue: QueueName, jobId: string) => repository.markTaken(queue, jobId),

    /**
     * One pass: each unsettled entry older than `graceMs` whose job
     * is gone is enqueued again; one whose job has finished is settled.
     * Old settled entries are deleted. Answers what it did. Right after the
     * queue's store came back the grace is 0: every job may be gone, and an
     * entry whose enqueue is still on its way is only added twice under one id.
     */
    async sweep(
      now = Date.now(),
      graceMs = INBOX_GRACE_MS,
    ): Promise<{ requeued: number; settled: number; deleted: number }> {
      const pending = await repository.pending(new Date(now - graceMs), SWEEP_BATCH);
      const finished: string[] = [];
      let requeued = 0;
      for (const entry of pending) {
        const job = await queue.getJob(entry.queue, entry.jobId);
        if (!job) {
          await enqueue(entry);
          requeued++;
        } else if (job.state === 'completed' || job.state === 'failed') {
          finished.push(entry.id);
        }
      }
      await repository.settle(finished);
      const deleted = await repository.deleteSettled(new Date(now - SETTLED_RETENTION_MS), SWEEP_BATCH);
      if (requeued > 0)
        logger.warn({ requeued }, 'inbox: enqueued again the jobs of kept items whose job was lost');
      return { requeued, settled: finished.length, deleted };
    },
  };
  return {
    ...inbox,
    /** The sweep as a recurring task of the worker processes (workers/schedules.ts). */
    recurring: [{ name: inbox.name, everyMs: inbox.everyMs, run: () => inbox.sweep() }],
  };
}

export type ChannelInbox = ReturnType<typeof createChannelInbox>;
