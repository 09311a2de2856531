import { and, eq, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../core/db/client.js';
import { agentTasks, conversations, employeeProfiles, messages } from '../../core/db/schema/index.js';

/** What memory extraction reads (the employee's tasks and messages) and writes (their profile). */
export function createMemoryRepository(db: Database) {
  return {
    /**
     * The employee who sent the task's message and the version of their
     * profile's row (`xmin`, which every update of the row changes); null
     * when the task, its conversation or the profile is gone (then there is
     * nothing to refresh).
     */
    async senderOfTask(taskId: string): Promise<{ userId: string; version: string } | null> {
      const [row] = rowsOf<{ userId: string; version: string }>(
        await db.execute(sql`SELECT p.user_id AS "userId", p.xmin::text AS version
          FROM ${agentTasks} t
          JOIN ${conversations} c ON c.id = t.conversation_id
          JOIN ${employeeProfiles} p ON p.user_id = c.user_id
          WHERE t.id = ${taskId}`),
      );
      return row ?? null;
    },

    /**
     * How often each known intent came up in the employee's finished tasks.
     * Counted per conversation first (the subquery's GROUP BY keeps it a
     * nested loop over the employee's conversations, each read through
     * `agent_tasks`' conversation index), so the cost follows the employee's
     * history, not the table's size, whatever the planner's statistics say
     * (the embedded database never gathers any).
     */
    async intentCounts(userId: string) {
      const rows = rowsOf<{ intent: string; count: number; lastAtMs: number }>(
        await db.execute(sql`SELECT per.intent, sum(per.n)::integer AS count,
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
    async recentQuestions(userId: string, limit: number): Promise<string[]> {
      const rows = rowsOf<{ content: string }>(
        await db.execute(sql`SELECT m.content
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

    /**
     * Writes the profile's memory if the row is still at `version` (read
     * with {@link senderOfTask}); answers false when another write came
     * first (nothing is written then).
     */
    async updateMemory(
      userId: string,
      patch: { frequentIntents: string[]; summary: string },
      version: string,
    ): Promise<boolean> {
      const written = await db
        .update(employeeProfiles)
        .set(patch)
        .where(and(eq(employeeProfiles.userId, userId), sql`${employeeProfiles}.xmin::text = ${version}`))
        .returning({ id: employeeProfiles.id });
      return written.length > 0;
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
