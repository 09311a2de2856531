import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Database } from '../../core/db/client.js';
import { RECENT_QUESTIONS, rankIntents, rollingSummary } from './memory.js';
import { createMemoryRepository } from './memory.repository.js';

/** Reads and writes of one job before it gives up on a profile that keeps changing (the queue retries it later). */
export const MEMORY_WRITE_ATTEMPTS = 5;

/**
 * Memory extraction (`memory-extraction` queue): after each agent task the
 * sender's profile gets `frequentIntents` and `summary` recomputed from
 * their task and message history. Recomputing (rather than counting up)
 * makes a replayed job harmless; writing only over the profile version
 * read first keeps concurrent jobs of one sender from losing a task.
 */
export function createProfileMemoryService(deps: { db: Database; accessStamps: AccessStamps }) {
  const memory = createMemoryRepository(deps.db);
  return {
    /**
     * Refreshes the profile of the employee behind `taskId`; answers false
     * when the task, its conversation or the sender's profile no longer
     * exists. Overwrites the profile's summary and frequentIntents.
     * @throws Error when the profile changed under every one of
     * {@link MEMORY_WRITE_ATTEMPTS} tries (the queue retries the job).
     */
    async extractAfterTask(taskId: string): Promise<boolean> {
      let userId: string;
      // Optimistic: the write goes through only if the profile's row is still the version read
      // before the history. Two jobs of one sender may run at once; the one that loses reads again,
      // so an older view never overwrites a newer one, and no job holds the row while it reads.
      for (let attempt = 1; ; attempt++) {
        const sender = await memory.historyOfTask(taskId, RECENT_QUESTIONS);
        if (!sender) return false;
        userId = sender.userId;
        const frequentIntents = rankIntents(sender.intentCounts);
        const summary = rollingSummary(sender.recentQuestions, frequentIntents);
        if (await memory.updateMemory(userId, { frequentIntents, summary }, sender.version)) break;
        if (attempt >= MEMORY_WRITE_ATTEMPTS)
          throw new Error(`memory extraction: the profile of ${userId} kept changing; the job is retried`);
      }
      await deps.accessStamps.bumpUser(userId);
      return true;
    },
  };
}

export type ProfileMemoryService = ReturnType<typeof createProfileMemoryService>;
