import { type SQL, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../core/db/client.js';
import { agentTasks, agentToolCalls, messages, notifications } from '../core/db/schema/index.js';
import { rowFromJson, uuidArray } from '../core/db/sql-helpers.js';
import type { NotificationText } from '../modules/notifications/notification-texts.js';
import { type MessageRow, statusFromApprovals } from './conversations.repository.js';
import type { NewApproval, NotificationRow } from './delivery.repository.js';
import {
  type AgentTaskRow,
  type GenerationRun,
  type NewToolCall,
  nextToolCallTime,
  runFigures,
  runWrites,
  type ToolCallRow,
} from './tasks.repository.js';

/** What every delivery decision writes besides its route: the task's end, its last tool calls, the first interaction. */
export interface TaskEnd {
  taskId: string;
  /** The task's output, the route's ids included. */
  output: Record<string, unknown>;
  finishedAt: Date;
  /** Tool calls not written yet (`generate` and `confidence_check`), in order, after the task's earlier ones. */
  toolCalls: NewToolCall[];
  /** The employee has now met the intent in this namespace. */
  interaction: { userId: string; namespaceId: string; intent: string };
  /** The generation's run (trace) with its hits, written with the end and its figures put on the task. */
  run: GenerationRun | null;
}

/** What a decision wrote; null from the writes when the task was finished already (then nothing was written). */
export interface DecisionWritten {
  task: AgentTaskRow;
  toolCalls: ToolCallRow[];
  notifications: NotificationRow[];
}

/**
 * The title and body (SQL expressions) of `text` in the language the SQL
 * expression `language` holds, English for null: so each recipient's row is
 * written in their language by the statement that writes it.
 */
function inLanguage(text: NotificationText, language: SQL): { title: SQL; body: SQL } {
  const [en, uk, ru] = [text('en'), text('uk'), text('ru')];
  const pick = (field: 'title' | 'body') =>
    sql`CASE ${language} WHEN 'uk' THEN ${uk[field]}::text WHEN 'ru' THEN ${ru[field]}::text ELSE ${en[field]}::text END`;
  return { title: pick('title'), body: pick('body') };
}

/**
 * The delivery decision written in one statement: a chain of data-modifying
 * CTEs (atomic as a transaction, one round trip instead of about ten). The
 * task's end comes first and everything else is written `FROM task`: when
 * the task was finished already (by a concurrent try), nothing is. A reply
 * outside the pipeline's decision (an approved reply, a bot answer) is
 * written by the same CTEs (`writeOutbound`).
 */
export function createDecisionRepository(db: Database) {
  async function written(statement: SQL): Promise<DecisionWritten | null> {
    const [row] = rowsOf<{
      task: Record<string, unknown> | null;
      calls: Array<Record<string, unknown>>;
      notified: Array<Record<string, unknown>>;
    }>(await db.execute(statement));
    if (!row?.task) return null;
    return {
      task: rowFromJson(agentTasks, row.task),
      toolCalls: row.calls.map((call) => rowFromJson(agentToolCalls, call)),
      notifications: row.notified.map((notice) => rowFromJson(notifications, notice)),
    };
  }

  return {
    /**
     * Ends the task with a `pending` (or `escalated`) approval, an
     * `approval_pending` notification for each of `recipients`, and the
     * conversation marked as waiting (`escalated` when any of its replies is).
     */
    async writeApproval(
      end: TaskEnd,
      approval: NewApproval & { id: string; conversationId: string },
      recipients: readonly string[],
      notice: NotificationText,
    ): Promise<DecisionWritten | null> {
      const text = inLanguage(notice, sql`u.language`);
      return written(sql`WITH ${taskEnd(end)},
        approval AS (
          INSERT INTO approvals (id, task_id, conversation_id, message_id, department_id, namespace_id, status,
            original_content, intent, confidence, triggers, sources, context, escalated_to_id, escalated_to_role)
          SELECT ${approval.id}::uuid, task.id, ${approval.conversationId}::uuid, ${approval.messageId ?? null}::uuid,
            ${approval.departmentId}::uuid, ${approval.namespaceId ?? null}::uuid, ${approval.status ?? 'pending'},
            ${approval.originalContent}, ${approval.intent ?? null}, ${approval.confidence ?? 0}::float8,
            ${JSON.stringify(approval.triggers ?? [])}::jsonb, ${JSON.stringify(approval.sources ?? [])}::jsonb,
            ${JSON.stringify(approval.context ?? {})}::jsonb, ${approval.escalatedToId ?? null}::uuid,
            ${approval.escalatedToRole ?? null}
          FROM task
          RETURNING id, status
        ),
        notified AS (
          INSERT INTO notifications (user_id, type, title, body, entity_type, entity_id)
          SELECT r.user_id, 'approval_pending', ${text.title}, ${text.body}, 'approval', approval.id::text
          FROM approval, unnest(${uuidArray(recipients)}) AS r(user_id) LEFT JOIN users u ON u.id = r.user_id
          RETURNING *
        ),
        waiting AS (
          UPDATE conversations c SET updated_at = now(),
            status = CASE WHEN approval.status = 'escalated' OR EXISTS (SELECT 1 FROM approvals a
              WHERE a.conversation_id = c.id AND a.status = 'escalated') THEN 'escalated' ELSE 'awaiting_approval' END
          FROM approval
          WHERE c.id = ${approval.conversationId}::uuid AND c.status <> 'closed'
        )
        ${results}`);
    },

    /**
     * Ends the task with its reply ({@link replyWrites}): the outbound
     * message, the conversation's last message time and status, and
     * `notice` for the employee when given. A reply the task has already
     * fails the statement (the retried job then finishes the task from it).
     */
    async writeReply(
      end: TaskEnd,
      reply: OutboundReply & { id: string },
      notice: ReplyNotice | null,
    ): Promise<DecisionWritten | null> {
      return written(sql`WITH ${taskEnd(end)}, ${replyWrites(reply, notice, 'task')} ${results}`);
    },

    /**
     * Writes a reply outside the pipeline's decision (an approved reply, a
     * bot answer), in the caller's transaction when given: as
     * {@link writeReply} without a task's end. Answers null for the message
     * when the task has a reply already (nothing is written then).
     */
    async writeOutbound(
      reply: OutboundReply,
      notice: ReplyNotice | null,
      tx: DbExecutor = db,
    ): Promise<{ message: MessageRow | null; notifications: NotificationRow[] }> {
      const [row] = rowsOf<{
        message: Record<string, unknown> | null;
        notified: Array<Record<string, unknown>>;
      }>(
        await tx.execute(sql`WITH ${replyWrites(reply, notice, null)}
          SELECT (SELECT row_to_json(reply) FROM reply) AS message,
            (SELECT coalesce(json_agg(notified), '[]') FROM notified) AS notified`),
      );
      return {
        message: row?.message ? rowFromJson(messages, row.message) : null,
        notifications: (row?.notified ?? []).map((notice) => rowFromJson(notifications, notice)),
      };
    },
  };
}

export type DecisionRepository = ReturnType<typeof createDecisionRepository>;

/** An outbound message to write; its id is chosen by the database when not given. */
export interface OutboundReply {
  id?: string;
  conversationId: string;
  channel: string;
  content: string;
  /** `queued` for a channel that sends it, `delivered` for the web chat. */
  status: string;
  taskId: string | null;
  approvalId: string | null;
}

/** The employee's notification of a reply (`assistant_reply`, entity: the message). */
export interface ReplyNotice {
  userId: string;
  text: NotificationText;
}

/**
 * The CTEs `reply` (the outbound message; with `gate`, written from that
 * CTE's row and failing on a reply the task has already, without it
 * skipped on one), `touched` (the conversation's last message time and its
 * status from its approvals, unless closed) and `notified` (`notice`, when
 * given, about the message written).
 */
function replyWrites(reply: OutboundReply, notice: ReplyNotice | null, gate: 'task' | null): SQL {
  // Without a notice the `notified` CTE writes nothing (its WHERE is false); it stays so the statement's shape does.
  const text = notice
    ? inLanguage(notice.text, sql`(SELECT language FROM users WHERE id = ${notice.userId}::uuid)`)
    : { title: sql`''`, body: sql`''` };
  const values = sql`coalesce(${reply.id ?? null}::uuid, gen_random_uuid()), ${reply.conversationId}::uuid, ${reply.channel}, 'outbound',
    ${reply.content}, ${reply.status}, ${reply.taskId}::uuid, ${reply.approvalId}::uuid`;
  return sql`reply AS (
      INSERT INTO messages (id, conversation_id, channel, direction, content, status, task_id, approval_id)
      ${gate ? sql`SELECT ${values} FROM ${sql.raw(gate)}` : sql`VALUES (${values}) ON CONFLICT DO NOTHING`}
      RETURNING *
    ),
    touched AS (
      UPDATE conversations c SET last_message_at = reply.created_at, updated_at = now(),
        status = CASE WHEN c.status = 'closed' THEN 'closed' ELSE ${statusFromApprovals(sql`c.id`)} END
      FROM reply
      WHERE c.id = reply.conversation_id
    ),
    notified AS (
      INSERT INTO notifications (user_id, type, title, body, entity_type, entity_id)
      SELECT ${notice?.userId ?? null}::uuid, 'assistant_reply', ${text.title}, ${text.body}, 'message', reply.id::text
      FROM reply
      WHERE ${notice !== null}::boolean
      RETURNING *
    )`;
}

/** The statement's answer: the finished task (null when it was finished before), the calls and notifications written. */
const results = sql`SELECT (SELECT row_to_json(task) FROM task) AS task,
  (SELECT coalesce(json_agg(calls ORDER BY calls.created_at), '[]') FROM calls) AS calls,
  (SELECT coalesce(json_agg(notified), '[]') FROM notified) AS notified`;

/**
 * The CTEs `task` (the end of a task not finished yet, with its run's
 * figures), `calls` (its last tool calls, a microsecond apart and after its
 * earlier ones, so that created_at orders them: {@link nextToolCallTime}),
 * the first interaction with the intent, and the run with its hits when
 * given ({@link runWrites}).
 */
function taskEnd(end: TaskEnd): SQL {
  const finishedAt = end.finishedAt.toISOString();
  const calls = end.toolCalls.map((call, n) => ({
    n,
    step_name: call.stepName,
    status: call.status,
    input_data: call.inputData ?? null,
    output_data: call.outputData ?? null,
    duration_ms: call.durationMs ?? 0,
    error_message: call.errorMessage ?? null,
  }));
  const { userId, namespaceId, intent } = end.interaction;
  return sql`task AS (
      UPDATE agent_tasks SET status = 'done', output = ${JSON.stringify(end.output)}::jsonb, error_message = NULL,
        finished_at = ${finishedAt}::timestamptz, updated_at = now(),${end.run ? sql` ${runFigures(end.run)},` : sql``}
        duration_ms = greatest(0, round(extract(epoch from (${finishedAt}::timestamptz - coalesce(started_at, created_at))) * 1000))::integer
      WHERE id = ${end.taskId}::uuid AND status IN ('queued', 'running')
      RETURNING *
    ),
    calls AS (
      INSERT INTO agent_tool_calls (task_id, step_name, status, input_data, output_data, duration_ms, error_message, created_at)
      SELECT task.id, c.step_name, c.status, c.input_data, c.output_data, c.duration_ms, c.error_message,
        ${nextToolCallTime(sql`task.id`)} + c.n * interval '1 microsecond'
      FROM task, jsonb_to_recordset(${JSON.stringify(calls)}::jsonb) AS c(n integer, step_name text, status text,
        input_data jsonb, output_data jsonb, duration_ms integer, error_message text)
      RETURNING *
    ),
    met AS (
      INSERT INTO intent_interactions (user_id, namespace_id, intent_name)
      SELECT ${userId}::uuid, ${namespaceId}::uuid, ${intent} FROM task
      ON CONFLICT DO NOTHING
    )${end.run ? sql`, ${runWrites(end.run, 'task')}` : sql``}`;
}
