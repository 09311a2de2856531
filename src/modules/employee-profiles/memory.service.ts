import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Database } from '../../core/db/client.js';
import { groupCommit } from '../../core/group-commit.js';
import { RECENT_QUESTIONS, rankIntents, rollingSummary } from './memory.js';
import { createMemoryRepository, type MemoryWrite } from './memory.repository.js';

/** Reads and writes of one job before it gives up on a profile that keeps changing (the queue retries it later). */
export const MEMORY_WRITE_ATTEMPTS = 5;

/**
 * Memory extraction (`memory-extraction` queue): after each agent task the
 * sender's profile gets `frequentIntents` and `summary` recomputed from
 * their task and message history. Recomputing (rather than counting up)
 * makes a replayed job harmless; writing only over the profile version
 * read first keeps concurrent jobs of one sender from losing a task.
 *
 * The jobs that run at once are refreshed together (core/group-commit.ts):
 * one statement reads the histories of all their senders and one writes
 * their profiles, instead of two statements a job.
 */
export function createProfileMemoryService(deps: { db: Database; accessStamps: AccessStamps }) {
  const memory = createMemoryRepository(deps.db);

  /**
   * One read and one write for `taskIds`: the memory of each of their
   * senders, written where the profile is still the version read. Answers
   * the tasks without a sender to refresh, the tasks whose sender was
   * written (with that sender), and the tasks whose sender changed under
   * the write (with that sender).
   */
  async function attempt(taskIds: readonly string[]) {
    const histories = await memory.historiesOfTasks(taskIds, RECENT_QUESTIONS);
    const writes = new Map<string, MemoryWrite>();
    for (const sender of histories.values()) {
      const frequentIntents = rankIntents(sender.intentCounts);
      const summary = rollingSummary(sender.recentQuestions, frequentIntents);
      writes.set(sender.userId, { userId: sender.userId, version: sender.version, frequentIntents, summary });
    }
    const written = await memory.updateMemories([...writes.values()]);
    const none: string[] = [];
    const done = new Map<string, string>();
    const lost = new Map<string, string>();
    for (const taskId of taskIds) {
      const userId = histories.get(taskId)?.userId;
      if (userId === undefined) none.push(taskId);
      else (written.has(userId) ? done : lost).set(taskId, userId);
    }
    return { none, done, lost };
  }

  /** Refreshes the senders of `taskIds`; per task, whether it had a sender to refresh, or an Error. */
  async function refreshAll(taskIds: readonly string[]): Promise<Array<boolean | Error>> {
    const outcome = new Map<string, boolean | Error>();
    const refreshed = new Set<string>();
    let pending = [...new Set(taskIds)];
    // Optimistic: a profile is written only if its row is still the version read with the history.
    // Two jobs of one sender may run at once in different processes; the one that loses reads
    // again, so an older view never overwrites a newer one, and no job holds the row while it reads.
    for (let tries = 1; pending.length > 0; tries++) {
      const { none, done, lost } = await attempt(pending);
      for (const taskId of none) outcome.set(taskId, false);
      for (const [taskId, userId] of done) {
        outcome.set(taskId, true);
        refreshed.add(userId);
      }
      pending = [...lost.keys()];
      if (tries >= MEMORY_WRITE_ATTEMPTS) {
        for (const [taskId, userId] of lost)
          outcome.set(
            taskId,
            new Error(`memory extraction: the profile of ${userId} kept changing; the job is retried`),
          );
        break;
      }
    }
    await Promise.all([...refreshed].map((userId) => deps.accessStamps.bumpUser(userId)));
    return taskIds.map((taskId) => outcome.get(taskId)!);
  }

  const refresh = groupCommit(refreshAll);

  return {
    /**
     * Refreshes the profile of the employee behind `taskId`; answers false
     * when the task, its conversation or the sender's profile no longer
     * exists. Overwrites the profile's summary and frequentIntents. Jobs
     * running at the same time are refreshed together.
     * @throws Error when the profile changed under every one of
     * {@link MEMORY_WRITE_ATTEMPTS} tries (the queue retries the job).
     */
    extractAfterTask(taskId: string): Promise<boolean> {
      return refresh(taskId);
    },
  };
}

export type ProfileMemoryService = ReturnType<typeof createProfileMemoryService>;
