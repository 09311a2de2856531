import { randomUUID } from 'node:crypto';
import type { LockStore } from '../core/kv/process-locks.js';
import type { DriverLogger } from '../core/logger.js';
import type { TaskSnapshot } from './task-context.query.js';
import { type AgentTaskRow, FINISHED_STATUSES } from './tasks.repository.js';

/** How long a conversation lock lives without renewal (renewed every third of it): a crashed holder blocks its conversation this long at most. */
export const CONVERSATION_LOCK_TTL_MS = 10_000;

export type OrderedRun = 'ran' | 'finished' | 'wait';

/**
 * Keeps the tasks of one conversation in arrival order across every worker
 * and process: a task runs only when no earlier task of its conversation is
 * queued or running, and while it holds the conversation's lock (in Redis
 * or the key-value table, shared by every process; in this process's memory
 * on the embedded database, which admits one process). The lock is
 * renewed while the task runs and released when it ends. A task waits for
 * the previous task to finish, never for a human decision on its reply.
 */
export function createConversationOrder(deps: {
  locks: LockStore;
  /**
   * The task, its turn and what its steps read, in one round trip
   * (`taskContext`); with `start`, a task whose turn has come and that no
   * try has started is started by the same statement (`started`).
   */
  read: (taskId: string, options: { start: boolean }) => Promise<TaskSnapshot>;
  logger: DriverLogger;
}) {
  const { locks, read, logger } = deps;
  return {
    /**
     * Runs `work` for the task when its turn has come: `ran`; `finished`
     * when the task needs nothing more; `wait` when an earlier task of the
     * conversation is unfinished or holds the lock (the caller retries
     * later). With `ignoreEarlier` only the lock is checked (used after a
     * long wait, so one lost task cannot stall its conversation forever).
     * `work` gets the task and its context, read before the lock was taken
     * (and the task as started by that read, `started`, when its turn had
     * come and no try had started it: should the lock then be taken, the
     * task waits as running, and its next try resumes it).
     */
    async run(
      taskId: string,
      work: (snapshot: TaskSnapshot & { task: AgentTaskRow }) => Promise<void>,
      options: { ignoreEarlier?: boolean } = {},
    ) {
      // After a long wait the task runs whatever came before it: then it is not started with the read.
      const found = await read(taskId, { start: !options.ignoreEarlier });
      const task = found.task;
      if (!task || (FINISHED_STATUSES as readonly string[]).includes(task.status)) return 'finished';
      if (!options.ignoreEarlier && found.earlierUnfinished) return 'wait';
      const key = `pipeline:conversation:${task.conversationId ?? task.id}`;
      const token = randomUUID();
      if (!(await locks.setIfAbsent(key, token, CONVERSATION_LOCK_TTL_MS))) return 'wait';
      const renew = setInterval(() => {
        locks
          .extendIfEquals(key, token, CONVERSATION_LOCK_TTL_MS)
          .catch((error: unknown) =>
            logger.warn({ err: error, taskId }, 'pipeline: renewing the conversation lock failed'),
          );
      }, CONVERSATION_LOCK_TTL_MS / 3);
      try {
        await work({ ...found, task });
        return 'ran';
      } finally {
        clearInterval(renew);
        await locks.deleteIfEquals(key, token).catch((error: unknown) => {
          logger.warn({ err: error, taskId }, 'pipeline: releasing the conversation lock failed');
        });
      }
    },
  } satisfies {
    run(
      taskId: string,
      work: (snapshot: TaskSnapshot & { task: AgentTaskRow }) => Promise<void>,
      options?: object,
    ): Promise<OrderedRun>;
  };
}

export type ConversationOrder = ReturnType<typeof createConversationOrder>;
