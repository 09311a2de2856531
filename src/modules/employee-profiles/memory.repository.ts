import { and, desc, eq, isNotNull, max, ne, sql } from 'drizzle-orm';
import type { Database } from '../../core/db/client.js';
import { agentTasks, conversations, employeeProfiles, messages } from '../../core/db/schema/index.js';

/** What memory extraction reads (the employee's tasks and messages) and writes (their profile). */
export function createMemoryRepository(db: Database) {
  const intent = sql<string>`${agentTasks.output}->>'intent'`;
  return {
    /** The employee who sent the task's message. */
    async senderOfTask(taskId: string): Promise<string | null> {
      const [row] = await db
        .select({ userId: conversations.userId })
        .from(agentTasks)
        .innerJoin(conversations, eq(conversations.id, agentTasks.conversationId))
        .where(eq(agentTasks.id, taskId))
        .limit(1);
      return row?.userId ?? null;
    },

    /** How often each known intent came up in the employee's finished tasks. */
    async intentCounts(userId: string) {
      const rows = await db
        .select({ intent, count: sql<number>`count(*)::integer`, lastAt: max(agentTasks.createdAt) })
        .from(agentTasks)
        .innerJoin(conversations, eq(conversations.id, agentTasks.conversationId))
        .where(
          and(
            eq(conversations.userId, userId),
            eq(agentTasks.status, 'done'),
            isNotNull(intent),
            ne(intent, 'unknown'),
          ),
        )
        .groupBy(intent);
      return rows.map((row) => ({
        intent: row.intent,
        count: Number(row.count),
        lastAt: row.lastAt ?? new Date(0),
      }));
    },

    /** The employee's latest inbound messages, newest first. */
    async recentQuestions(userId: string, limit: number): Promise<string[]> {
      const rows = await db
        .select({ content: messages.content })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(and(eq(conversations.userId, userId), eq(messages.direction, 'inbound')))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit);
      return rows.map((row) => row.content);
    },

    async updateMemory(userId: string, patch: { frequentIntents: string[]; summary: string }): Promise<void> {
      await db.update(employeeProfiles).set(patch).where(eq(employeeProfiles.userId, userId));
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
