import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Database } from '../../core/db/client.js';
import { RECENT_QUESTIONS, rankIntents, rollingSummary } from './memory.js';
import { createMemoryRepository } from './memory.repository.js';

/**
 * Memory extraction (`memory-extraction` queue): after each agent task the
 * sender's profile gets `frequentIntents` and `summary` recomputed from
 * their task and message history. Recomputing (rather than counting up)
 * makes a replayed job harmless; locking the profile's row first makes
 * concurrent jobs of one sender take turns.
 */
export function createProfileMemoryService(deps: { db: Database; accessStamps: AccessStamps }) {
  const memory = createMemoryRepository(deps.db);
  return {
    /**
     * Refreshes the profile of the employee behind `taskId`; answers false
     * when the task or its conversation no longer exists. Overwrites the
     * profile's summary and frequentIntents.
     */
    async extractAfterTask(taskId: string): Promise<boolean> {
      // One transaction that first locks the sender's profile row: jobs of one sender run one after
      // the other, each reading the history after the previous one wrote, so a job that read
      // earlier cannot write its older view over a newer one.
      const userId = await deps.db.transaction(async (tx) => {
        const sender = await memory.lockSenderOfTask(taskId, tx);
        if (!sender) return null;
        const frequentIntents = rankIntents(await memory.intentCounts(sender, tx));
        const summary = rollingSummary(
          await memory.recentQuestions(sender, RECENT_QUESTIONS, tx),
          frequentIntents,
        );
        await memory.updateMemory(sender, { frequentIntents, summary }, tx);
        return sender;
      });
      if (!userId) return false;
      await deps.accessStamps.bumpUser(userId);
      return true;
    },
  };
}

export type ProfileMemoryService = ReturnType<typeof createProfileMemoryService>;
