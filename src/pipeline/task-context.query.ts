import { and, eq, not, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../core/db/client.js';
import {
  agentTasks,
  conversations,
  employeeProfiles,
  intentInteractions,
  intentTrust,
  kbStats,
  knowledgeBases,
  messages,
  namespaces,
  roles,
  users,
} from '../core/db/schema/index.js';
import { rowFromJson } from '../core/db/sql-helpers.js';
import type { Turn } from '../modules/conversations/conversations.repository.js';
import type { KnowledgeBaseSnapshot } from '../modules/rag/hybrid-search.js';
import { firstStartOf, startPatch } from './tasks.repository.js';

/**
 * The query of `taskContext`, built once and prepared: it selects five
 * tables' columns with two subqueries, and building it cost about 0.6 ms of
 * the service's CPU per run job (measured with Drizzle on the development
 * machine), more than running it.
 */
export function prepareTaskContext(db: Database) {
  // The first start of a task whose turn has come (no earlier task of its conversation is queued or
  // running) and that no try has started, when asked (`start`): `startFirst`'s UPDATE, so that a
  // task's first run reads and starts in one statement.
  const started = db.$with('started', { id: sql<string>`id` }).as(
    db
      .update(agentTasks)
      .set({ ...startPatch(undefined), updatedAt: sql`now()` })
      .where(
        and(
          firstStartOf(sql.placeholder('taskId')),
          sql`${sql.placeholder('start')}::boolean`,
          not(earlierUnfinished(sql`${agentTasks}`)),
        ),
      )
      .returning()
      .getSQL(),
  );
  return db
    .with(started)
    .select({
      task: agentTasks,
      started: sql<Record<string, unknown> | null>`(SELECT row_to_json(s) FROM ${started} s)`,
      earlierUnfinished: earlierUnfinished(sql`${agentTasks}`),
      namespace: namespaces,
      conversation: conversations,
      inbound: messages,
      user: users,
      // The department's knowledge bases, oldest first, with what retrieval reads of them before it searches
      // (version, department, weights): the rag_search step then reads nothing of its own first.
      knowledgeBases: sql<KnowledgeBaseSnapshot[] | null>`(SELECT json_agg(json_build_object('id', kb.id,
          'departmentId', kb.department_id, 'ragWeights', kb.rag_weights, 'version', s.version)
          ORDER BY kb.created_at, kb.id)
        FROM ${knowledgeBases} kb LEFT JOIN ${kbStats} s ON s.knowledge_base_id = kb.id
        WHERE kb.department_id = ${namespaces.departmentId})`,
      profile: {
        summary: employeeProfiles.summary,
        currentProjects: employeeProfiles.currentProjects,
        frequentIntents: employeeProfiles.frequentIntents,
        accessLevel: employeeProfiles.accessLevel,
      },
      // What confidence_check weighs the classified intent with: the namespace's trust records and the
      // intents the sender met in it (one statement less than reading them for the intent found).
      intentTrust: sql<Record<string, { isAutonomous: boolean; samplingRate: number | string }> | null>`(
        SELECT json_object_agg(t.intent_name,
          json_build_object('isAutonomous', t.is_autonomous, 'samplingRate', t.sampling_rate))
        FROM ${intentTrust} t WHERE t.namespace_id = ${agentTasks.namespaceId})`,
      // The roles that grant canApprove, for the approvers of a reply that waits for a human: read here,
      // as the task starts, rather than by a statement of the decision's own.
      approverRoleIds: sql<string[] | null>`(SELECT json_agg(r.id ORDER BY r.id) FROM ${roles} r
        WHERE 'canApprove' = any(r.permissions))`,
      metIntents: sql<string[] | null>`(SELECT json_agg(i.intent_name) FROM ${intentInteractions} i
        WHERE i.user_id = ${users.id} AND i.namespace_id = ${agentTasks.namespaceId})`,
      // The same rows as turnsBefore, newest first (the LIMIT keeps the last ones).
      turns: sql<Array<{ direction: string; content: string; createdAt: string }> | null>`(
        SELECT json_agg(json_build_object('direction', t.direction, 'content', t.content, 'createdAt', t.created_at))
        FROM (SELECT m.direction, m.content, m.created_at FROM ${messages} m
          WHERE m.conversation_id = ${messages.conversationId}
            AND (m.created_at < ${messages.createdAt} OR (m.created_at = ${messages.createdAt} AND m.id < ${messages.id}))
            AND (m.direction = 'inbound' OR m.status IN ('sent', 'delivered', 'read'))
          ORDER BY m.created_at DESC, m.id DESC LIMIT ${sql.placeholder('historyTurns')}) t)`,
    })
    .from(agentTasks)
    .leftJoin(namespaces, eq(namespaces.id, agentTasks.namespaceId))
    .leftJoin(conversations, eq(conversations.id, agentTasks.conversationId))
    .leftJoin(messages, eq(messages.id, agentTasks.messageId))
    .leftJoin(users, eq(users.id, conversations.userId))
    .leftJoin(employeeProfiles, eq(employeeProfiles.userId, users.id))
    .where(eq(agentTasks.id, sql.placeholder('taskId')))
    .limit(1)
    .prepare('task_context');
}

/** Whether an earlier task of the conversation of `task` (a row of agent_tasks) is queued or running. */
function earlierUnfinished(task: SQL): SQL<boolean> {
  return sql<boolean>`exists (SELECT 1 FROM agent_tasks e
    WHERE e.conversation_id = ${task}.conversation_id AND e.status IN ('queued', 'running')
      AND (e.created_at < ${task}.created_at OR (e.created_at = ${task}.created_at AND e.id < ${task}.id)))`;
}

/** A task with what its steps read (see `taskContext`). */
export type TaskSnapshot = Awaited<ReturnType<ReturnType<typeof createTaskContextReader>['taskContext']>>;

/** The read of every run job: a task with what its steps read, in one prepared statement. */
export function createTaskContextReader(db: Database) {
  const taskContextQuery = prepareTaskContext(db);
  return {
    /**
     * A task and what its steps read, in one query (the read of every run
     * job): the task (null when it does not exist), whether a task of the
     * same conversation that came in earlier has not finished yet (then this
     * one must wait for it: per-conversation order), its namespace,
     * conversation, inbound message and sender (each null when missing), the
     * ids of the knowledge bases of the namespace's department, oldest first,
     * the sender's profile facts (null without a profile) and the last
     * `historyTurns` turns before the message (as {@link turnsBefore}), and
     * the namespace's intent trust records with the intents the sender met
     * in it (`standings`). With `start`, the same statement starts a task
     * whose turn has come and that no try has started (`started`: the task
     * as started, else null; `task` is the row as it was read).
     */
    async taskContext(taskId: string, historyTurns: number, options: { start?: boolean } = {}) {
      const [row] = await taskContextQuery.execute({ taskId, historyTurns, start: options.start ?? false });
      return {
        task: row?.task ?? null,
        started: row?.started ? rowFromJson(agentTasks, row.started) : null,
        earlierUnfinished: Boolean(row?.earlierUnfinished),
        namespace: row?.namespace ?? null,
        conversation: row?.conversation ?? null,
        inbound: row?.inbound ?? null,
        user: row?.user ?? null,
        knowledgeBaseIds: (row?.knowledgeBases ?? []).map((base) => base.id),
        knowledgeBases: row?.knowledgeBases ?? [],
        approverRoleIds: row?.approverRoleIds ?? [],
        profile: row?.profile ?? null,
        standings: {
          trust: new Map(
            Object.entries(row?.intentTrust ?? {}).map(([intent, trust]) => [
              intent,
              { isAutonomous: Boolean(trust.isAutonomous), samplingRate: Number(trust.samplingRate) },
            ]),
          ),
          met: new Set(row?.metIntents ?? []),
        },
        turns: (row?.turns ?? []).reverse().map(
          (turn): Turn => ({
            role: turn.direction === 'inbound' ? 'user' : 'assistant',
            content: turn.content,
            // json_build_object writes the timestamp in PostgreSQL's ISO form; the same instant as a Date.
            createdAt: new Date(turn.createdAt).toISOString(),
          }),
        ),
      };
    },
  };
}

export type TaskContextReader = ReturnType<typeof createTaskContextReader>;
