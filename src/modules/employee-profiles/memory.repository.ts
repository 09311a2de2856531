import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../core/db/client.js';
import { agentTasks, conversations, employeeProfiles, messages } from '../../core/db/schema/index.js';

/** The sender of a task and their history, as memory extraction reads them ({@link createMemoryRepository}). */
export interface SenderHistory {
  userId: string;
  /** The profile row's version (`xmin`), for the optimistic write. */
  version: string;
  /** Finished tasks per known intent, with the latest one's time. */
  intentCounts: Array<{ intent: string; count: number; lastAt: Date }>;
  /** The latest inbound messages, newest first. */
  recentQuestions: string[];
}

/** What memory extraction reads (the employee's tasks and messages) and writes (their profile). */
export function createMemoryRepository(db: Database) {
  // Run after every task: built once (a query builder costs 80 to 100 µs to build). `updated_at` is
  // now(), since Drizzle's $onUpdate value would be computed once, when the statement is built.
  const updateMemoryQuery = db
    .update(employeeProfiles)
    .set({
      summary: sql`${sql.placeholder('summary')}`,
      frequentIntents: sql`${sql.placeholder('frequentIntents')}::text[]`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(employeeProfiles.userId, sql.placeholder('userId')),
        sql`${employeeProfiles}.xmin::text = ${sql.placeholder('version')}`,
      ),
    )
    .returning({ id: employeeProfiles.id })
    .prepare('profile_memory_update');
  return {
    /**
     * Everything a refresh reads, in one statement: the employee who sent
     * the task's message, the version of their profile's row (`xmin`, which
     * every update of the row changes), how often each known intent came up
     * in their finished tasks (with the latest time), and their `questions`
     * latest inbound messages, newest first. Null when the task, its
     * conversation or the profile is gone (then there is nothing to
     * refresh). One snapshot for all three, so the counts and the questions
     * are of the same moment as the version ({@link senderHistoryQuery}).
     */
    async historyOfTask(taskId: string, questions: number): Promise<SenderHistory | null> {
      const [row] = rowsOf<{
        userId: string;
        version: string;
        intents: Array<{ intent: string; count: number; lastAtMs: number }>;
        questions: string[];
      }>(await db.execute(senderHistoryQuery(taskId, questions)));
      if (!row) return null;
      return {
        userId: row.userId,
        version: row.version,
        intentCounts: row.intents.map((intent) => ({
          intent: intent.intent,
          count: Number(intent.count),
          lastAt: new Date(Number(intent.lastAtMs)),
        })),
        recentQuestions: row.questions,
      };
    },

    /**
     * Writes the profile's memory if the row is still at `version` (read
     * with {@link historyOfTask}); answers false when another write came
     * first (nothing is written then).
     */
    async updateMemory(
      userId: string,
      patch: { frequentIntents: string[]; summary: string },
      version: string,
    ): Promise<boolean> {
      const written = await updateMemoryQuery.execute({
        userId,
        version,
        summary: patch.summary,
        frequentIntents: patch.frequentIntents,
      });
      return written.length > 0;
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;

/**
 * The statement of {@link MemoryRepository.historyOfTask}. Both histories
 * are read per conversation of the employee first (the subqueries' LATERAL
 * joins keep them nested loops over the employee's conversations, through
 * `agent_tasks_done_conversation_idx` and the messages' conversation
 * index), so the cost follows the employee's history, not the tables'
 * size, whatever the planner's statistics say (the embedded database never
 * gathers any).
 */
export function senderHistoryQuery(taskId: string, questions: number): SQL {
  return sql`WITH sender AS (
      SELECT p.user_id, p.xmin::text AS version
      FROM ${agentTasks} t
      JOIN ${conversations} c ON c.id = t.conversation_id
      JOIN ${employeeProfiles} p ON p.user_id = c.user_id
      WHERE t.id = ${taskId}
    )
    SELECT s.user_id AS "userId", s.version,
      (SELECT coalesce(json_agg(json_build_object('intent', i.intent, 'count', i.count, 'lastAtMs', i.last_at_ms)), '[]'::json)
        FROM (
          SELECT per.intent, sum(per.n)::integer AS count,
            (extract(epoch FROM max(per.last_at)) * 1000)::float8 AS last_at_ms
          FROM ${conversations} c
          CROSS JOIN LATERAL (
            SELECT t.output->>'intent' AS intent, count(*) AS n, max(t.created_at) AS last_at
            FROM ${agentTasks} t
            WHERE t.conversation_id = c.id AND t.status = 'done'
              AND t.output->>'intent' IS NOT NULL AND t.output->>'intent' <> 'unknown'
            GROUP BY 1
          ) per
          WHERE c.user_id = s.user_id
          GROUP BY per.intent
        ) i) AS intents,
      (SELECT coalesce(json_agg(q.content ORDER BY q.created_at DESC, q.id DESC), '[]'::json)
        FROM (
          SELECT m.content, m.created_at, m.id
          FROM ${conversations} c
          CROSS JOIN LATERAL (
            SELECT content, created_at, id FROM ${messages}
            WHERE conversation_id = c.id AND direction = 'inbound'
            ORDER BY created_at DESC, id DESC
            LIMIT ${questions}
          ) m
          WHERE c.user_id = s.user_id
          ORDER BY m.created_at DESC, m.id DESC
          LIMIT ${questions}
        ) q) AS questions
    FROM sender s`;
}
