import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Database } from '../../core/db/client.js';
import { RECENT_QUESTIONS, rankIntents, rollingSummary } from './memory.js';
import { createMemoryRepository } from './memory.repository.js';

/**
 * Memory extraction (`memory-extraction` queue): after each agent task the
 * sender's profile gets `frequentIntents` and `summary` recomputed from
 * their task and message history. Recomputing (rather than counting up)
 * makes a replayed job harmless.
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
      const userId = await memory.senderOfTask(taskId);
      if (!userId) return false;
      const frequentIntents = rankIntents(await memory.intentCounts(userId));
      const summary = rollingSummary(await memory.recentQuestions(userId, RECENT_QUESTIONS), frequentIntents);
      await memory.updateMemory(userId, { frequentIntents, summary });
      await deps.accessStamps.bumpUser(userId);
      return true;
    },
  };
}

export type ProfileMemoryService = ReturnType<typeof createProfileMemoryService>;
