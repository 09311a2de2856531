import { eq, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../../core/db/client.js';
import { agentTasks, conversations, employeeProfiles, messages } from '../../core/db/schema/index.js';

/** What memory extraction reads (the employee's tasks and messages) and writes (their profile). */
export function createMemoryRepository(db: Database) {
  return {
    /**
     * The employee who sent the task's message, with their profile's row
     * locked until `tx` ends; null when the task, its conversation or the
     * profile is gone (then there is nothing to refresh).
     */
    async lockSenderOfTask(taskId: string, tx: DbExecutor): Promise<string | null> {
      const [row] = rowsOf<{ userId: string }>(
        await tx.execute(sql`SELECT p.user_id AS "userId"
          FROM ${agentTasks} t
          JOIN ${conversations} c ON c.id = t.conversation_id
          JOIN ${employeeProfiles} p ON p.user_id = c.user_id
          WHERE t.id = ${taskId}
          FOR UPDATE OF p`),
      );
      return row?.userId ?? null;
    },

    /**
     * How often each known intent came up in the employee's finished tasks.
     * Counted per conversation first (the subquery's GROUP BY keeps it a
     * nested loop over the employee's conversations, each read through
     * `agent_tasks`' conversation index), so the cost follows the employee's
     * history, not the table's size, whatever the planner's statistics say
     * (the embedded database never gathers any).
     */
    async intentCounts(userId: string, tx: DbExecutor = db) {
      const rows = rowsOf<{ intent: string; count: number; lastAtMs: number }>(
        await tx.execute(sql`SELECT per.intent, sum(per.n)::integer AS count,
            (extract(epoch FROM max(per.last_at)) * 1000)::float8 AS "lastAtMs"
          FROM ${conversations} c
          CROSS JOIN LATERAL (
            SELECT t.output->>'intent' AS intent, count(*) AS n, max(t.created_at) AS last_at
            FROM ${agentTasks} t
            WHERE t.conversation_id = c.id AND t.status = 'done'
              AND t.output->>'intent' IS NOT NULL AND t.output->>'intent' <> 'unknown'
            GROUP BY 1
          ) per
          WHERE c.user_id = ${userId}
          GROUP BY per.intent`),
      );
      return rows.map((row) => ({
        intent: row.intent,
        count: Number(row.count),
        lastAt: new Date(Number(row.lastAtMs)),
      }));
    },

    /**
     * The employee's latest inbound messages, newest first: the latest few
     * of each of their conversations (through the messages' conversation
     * index), then the latest of those, so the cost follows the employee's
     * history, not the table's size.
     */
    async recentQuestions(userId: string, limit: number, tx: DbExecutor = db): Promise<string[]> {
      const rows = rowsOf<{ content: string }>(
        await tx.execute(sql`SELECT m.content
          FROM ${conversations} c
          CROSS JOIN LATERAL (
            SELECT content, created_at, id FROM ${messages}
            WHERE conversation_id = c.id AND direction = 'inbound'
            ORDER BY created_at DESC, id DESC
            LIMIT ${limit}
          ) m
          WHERE c.user_id = ${userId}
          ORDER BY m.created_at DESC, m.id DESC
          LIMIT ${limit}`),
      );
      return rows.map((row) => row.content);
    },

    async updateMemory(
      userId: string,
      patch: { frequentIntents: string[]; summary: string },
      tx: DbExecutor = db,
    ): Promise<void> {
      await tx.update(employeeProfiles).set(patch).where(eq(employeeProfiles.userId, userId));
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
