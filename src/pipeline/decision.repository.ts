import { type SQL, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../core/db/client.js';
import { agentTasks, agentToolCalls, messages, notifications } from '../core/db/schema/index.js';
import { rowFromJson } from '../core/db/sql-helpers.js';
import { approvalInsertCte, type NewApproval } from '../modules/approvals/approvals.repository.js';
import {
  conversationTouchedCte,
  conversationWaitingCte,
} from '../modules/conversations/conversations.repository.js';
import {
  type MessageRow,
  type OutboundReply,
  replyMessageCte,
} from '../modules/conversations/messages.repository.js';
import type { NotificationText } from '../modules/notifications/notification-texts.js';
import {
  approvalNotifiedCte,
  type NotificationRow,
  replyNoticeCte,
} from '../modules/notifications/notifications.repository.js';
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
 * The delivery decision written in one statement: a chain of data-modifying
 * CTEs (atomic as a transaction, one round trip instead of about ten). The
 * task's end comes first and everything else is written `FROM task`: when
 * the task was finished already (by a concurrent try), nothing is. A reply
 * outside the pipeline's decision (an approved reply, a bot answer) is
 * written by the same CTEs (`writeOutbound`). Each table's part is written
 * by the repository that owns the table (approvals, conversations,
 * messages, notifications); this file composes them with the task's end.
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
      return written(sql`WITH ${taskEnd(end)},
        ${approvalInsertCte(approval)},
        ${approvalNotifiedCte(recipients, notice)},
        ${conversationWaitingCte(approval.conversationId)}
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
  return sql`${replyMessageCte(reply, gate)},
    ${conversationTouchedCte('reply', null)},
    ${replyNoticeCte(notice)}`;
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
