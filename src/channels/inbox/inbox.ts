import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../core/db/client.js';
import { groupCommit } from '../../core/group-commit.js';
import type { DriverLogger } from '../../core/logger.js';
import type { QueueDriver, QueueName } from '../../core/queue/queue.js';
import { createInboxRepository, type InboxEntry } from './inbox.repository.js';

export type { InboxEntry } from './inbox.repository.js';

/** How old an unsettled entry must be before the sweep looks at it: its own enqueue normally settles it. */
export const INBOX_GRACE_MS = 3000;
/** How long an item waits for a sender's earlier item before it is taken anyway (that one may be stuck). */
export const TURN_WAIT_MS = 10_000;
const TURN_POLL_MS = 25;
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

  return {
    name: 'channel-inbox-sweep',
    everyMs: 5000,

    /**
     * Keeps the entries (one statement, shared with the calls made while
     * the previous one ran; a repeated item is kept once), then enqueues
     * their jobs. A queue that fails is logged, not thrown: the
     * entries are kept and the sweep enqueues them.
     * @throws when the database cannot keep them (the caller answers 503: the platform delivers again).
     */
    async accept(entries: readonly InboxEntry[]): Promise<void> {
      if (entries.length === 0) return;
      await keep(entries);
      try {
        await Promise.all(entries.map(enqueue));
      } catch (error) {
        logger.warn(
          { err: error, jobs: entries.length },
          'inbox: kept, but the queue did not take the jobs; the sweep will enqueue them',
        );
      }
    },

    /**
     * Runs `work` for one item once the same sender's earlier items (in the
     * platform's order) have been taken, so that consumers running several
     * items at once, in one process or several, still store a sender's
     * messages in the order the platform sent them; then marks the item
     * taken. An earlier item not taken within {@link TURN_WAIT_MS} (stuck,
     * or failing) is not waited for any longer. When `work` throws the item
     * is not taken: its retry keeps its place.
     */
    async takeInOrder<T>(queue: QueueName, jobId: string, work: () => Promise<T>): Promise<T> {
      const deadline = Date.now() + TURN_WAIT_MS;
      while (Date.now() < deadline && (await repository.earlierUntaken(queue, jobId))) {
        await sleep(TURN_POLL_MS);
      }
      const result = await work();
      await repository.markTaken(queue, jobId);
      return result;
    },

    /** Marks an item taken without running it (its job failed for good): later items stop waiting for it. */
    markTaken: (queue: QueueName, jobId: string) => repository.markTaken(queue, jobId),

    /**
     * One pass: each unsettled entry older than the grace period whose job
     * is gone is enqueued again; one whose job has finished is settled.
     * Old settled entries are deleted. Answers what it did.
     */
    async sweep(now = Date.now()): Promise<{ requeued: number; settled: number; deleted: number }> {
      const pending = await repository.pending(new Date(now - INBOX_GRACE_MS), SWEEP_BATCH);
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
}

export type ChannelInbox = ReturnType<typeof createChannelInbox>;
