import { type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../core/db/client.js';
import { agentTasks, conversations, employeeProfiles, messages } from '../../core/db/schema/index.js';
import { textArray, uuidArray } from '../../core/db/sql-helpers.js';
import { isUuid } from '../../core/ids.js';
import { UNKNOWN_INTENT } from '../intents/intent-vote.js';

/** The sender of one or more tasks and their history, as memory extraction reads them ({@link createMemoryRepository}). */
export interface SenderHistory {
  userId: string;
  /** The profile row's version (`xmin`), for the optimistic write. */
  version: string;
  /** Finished tasks per known intent, with the latest one's time. */
  intentCounts: Array<{ intent: string; count: number; lastAt: Date }>;
  /** The latest inbound messages, newest first. */
  recentQuestions: string[];
}

/** A profile memory to write over the row version it was computed from. */
export interface MemoryWrite {
  userId: string;
  version: string;
  frequentIntents: string[];
  summary: string;
}

/** What memory extraction reads (the employee's tasks and messages) and writes (their profile). */
export function createMemoryRepository(db: Database) {
  return {
    /**
     * Everything a refresh reads, for several tasks in one statement: per
     * sender, the version of their profile's row (`xmin`, which every update
     * of the row changes), how often each known intent came up in their
     * finished tasks (with the latest time) and their `questions` latest
     * inbound messages, newest first. Keyed by task id; a task whose
     * conversation or profile is gone (or that is gone) is absent. One
     * snapshot for all, so the counts and the questions are of the same
     * moment as the version ({@link senderHistoryQuery}); tasks of one
     * sender share one history.
     */
    async historiesOfTasks(
      taskIds: readonly string[],
      questions: number,
    ): Promise<Map<string, SenderHistory>> {
      const histories = new Map<string, SenderHistory>();
      const asked = taskIds.filter(isUuid);
      if (asked.length === 0) return histories;
      const rows = rowsOf<{
        taskIds: string[];
        userId: string;
        version: string;
        intents: Array<{ intent: string; count: number; lastAtMs: number }>;
        questions: string[];
      }>(await db.execute(senderHistoryQuery(asked, questions)));
      for (const row of rows) {
        const history: SenderHistory = {
          userId: row.userId,
          version: row.version,
          intentCounts: row.intents.map((intent) => ({
            intent: intent.intent,
            count: Number(intent.count),
            lastAt: new Date(Number(intent.lastAtMs)),
          })),
          recentQuestions: row.questions,
        };
        for (const taskId of row.taskIds) histories.set(taskId, history);
      }
      return histories;
    },

    /**
     * Writes each profile's memory, in one statement, where the row is still
     * at the version the memory was computed from ({@link historiesOfTasks});
     * answers the users whose profile was written (another write came first
     * for the rest, and nothing was written for them).
     */
    async updateMemories(writes: readonly MemoryWrite[]): Promise<Set<string>> {
      if (writes.length === 0) return new Set();
      // `updated_at` is now(): Drizzle's $onUpdate value would be computed once, when the statement is built.
      // The rows come as arrays, unnested: a generic plan then expects a few of them and looks each
      // profile up by its index (a JSON record set is estimated at a hundred rows, and was joined by
      // scanning every profile: 1 ms a batch).
      const written = rowsOf<{ userId: string }>(
        await db.execute(sql`UPDATE ${employeeProfiles} p
          SET summary = w.summary, frequent_intents = ARRAY(SELECT jsonb_array_elements_text(w.intents::jsonb)),
            updated_at = now()
          FROM unnest(${uuidArray(writes.map((w) => w.userId))}, ${textArray(writes.map((w) => w.version))},
            ${textArray(writes.map((w) => w.summary))}, ${textArray(writes.map((w) => JSON.stringify(w.frequentIntents)))})
            AS w(user_id, version, summary, intents)
          WHERE p.user_id = w.user_id AND p.xmin::text = w.version
          RETURNING p.user_id AS "userId"`),
      );
      return new Set(written.map((row) => row.userId));
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;

/**
 * The statement of {@link MemoryRepository.historiesOfTasks}: a row per
 * sender of `taskIds`, with those of the tasks that are theirs. Both
 * histories are read per conversation of the employee first (the
 * subqueries' LATERAL joins keep them nested loops over the employee's
 * conversations, through `agent_tasks_done_conversation_idx` and the
 * messages' conversation index), so the cost follows the employees'
 * history, not the tables' size, whatever the planner's statistics say (the
 * embedded database never gathers any).
 */
export function senderHistoryQuery(taskIds: readonly string[], questions: number): SQL {
  return sql`WITH sender AS (
      SELECT p.user_id, p.xmin::text AS version, array_agg(DISTINCT t.id) AS task_ids
      FROM unnest(${uuidArray(taskIds)}) AS asked(task_id)
      JOIN ${agentTasks} t ON t.id = asked.task_id
      JOIN ${conversations} c ON c.id = t.conversation_id
      JOIN ${employeeProfiles} p ON p.user_id = c.user_id
      GROUP BY p.user_id, p.xmin::text
    )
    SELECT s.task_ids AS "taskIds", s.user_id AS "userId", s.version,
      (SELECT coalesce(json_agg(json_build_object('intent', i.intent, 'count', i.count, 'lastAtMs', i.last_at_ms)), '[]'::json)
        FROM (
          SELECT per.intent, sum(per.n)::integer AS count,
            (extract(epoch FROM max(per.last_at)) * 1000)::float8 AS last_at_ms
          FROM ${conversations} c
          CROSS JOIN LATERAL (
            SELECT t.output->>'intent' AS intent, count(*) AS n, max(t.created_at) AS last_at
            FROM ${agentTasks} t
            WHERE t.conversation_id = c.id AND t.status = 'done'
              AND t.output->>'intent' IS NOT NULL AND t.output->>'intent' <> ${UNKNOWN_INTENT}
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
