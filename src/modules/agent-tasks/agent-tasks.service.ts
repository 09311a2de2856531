import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import { ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type {
  AgentTaskFilters,
  AgentTaskListRow,
  AgentTaskStatsRow,
  AgentTasksRepository,
  ToolCallRow,
} from './agent-tasks.repository.js';
import type { AgentTaskStatusValue } from './agent-tasks.schemas.js';

export interface AgentTaskFilterInput {
  namespaceId?: string;
  departmentId?: string;
  adapterType?: string;
  from?: string;
  to?: string;
}

/** The longest message text a task answer carries; the message itself is in its conversation. */
export const MESSAGE_TEXT_MAX = 500;

/** The message text cut to MESSAGE_TEXT_MAX characters (an ellipsis marks the cut). */
function shortened(text: string | null): string | null {
  if (text === null || text.length <= MESSAGE_TEXT_MAX) return text;
  return `${text.slice(0, MESSAGE_TEXT_MAX - 1)}…`;
}

/**
 * Whether `actor` may read who sent a task's message and what it says: its
 * sender, and people who already read employees' questions (approvers,
 * those who see every user of their departments). Others see the task's
 * figures without them.
 */
function readsMessageOf(actor: Actor, senderId: string | null): boolean {
  return (
    senderId === actor.userId ||
    actor.permissions.has('canApprove') ||
    actor.permissions.has('canViewAllUsers')
  );
}

export function toAgentTask(
  { task: row, messageText, channel, senderId, senderName }: AgentTaskListRow,
  actor: Actor,
) {
  const readable = readsMessageOf(actor, senderId);
  return {
    id: row.id,
    jobId: row.jobId,
    namespaceId: row.namespaceId,
    departmentId: row.departmentId,
    conversationId: row.conversationId,
    messageId: row.messageId,
    adapterType: row.adapterType,
    status: row.status as AgentTaskStatusValue,
    traceId: row.traceId,
    errorMessage: row.errorMessage,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    totalTokens: row.totalTokens,
    costUsd: row.costUsd,
    usageKnown: row.usageKnown,
    durationMs: row.durationMs,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    messageText: readable ? shortened(messageText) : null,
    channel,
    sender: senderId === null || !readable ? null : { id: senderId, name: senderName ?? '' },
  };
}

/** A step of the task; its data (the question, the profile, the draft) only for a reader of the message. */
function toToolCall(row: ToolCallRow, readable: boolean) {
  return {
    id: row.id,
    stepName: row.stepName,
    status: row.status,
    inputData: readable ? (row.inputData ?? null) : null,
    outputData: readable ? (row.outputData ?? null) : null,
    durationMs: row.durationMs,
    errorMessage: row.errorMessage,
    createdAt: iso(row.createdAt),
  };
}

const numberOrNull = (value: string | number | null): number | null =>
  value === null ? null : Math.round(Number(value) * 1_000_000) / 1_000_000;

function toStats(row: AgentTaskStatsRow) {
  const finished = row.done + row.failed + row.timeout;
  return {
    adapterType: row.adapterType,
    namespaceId: row.namespaceId,
    total: row.total,
    successRate: finished === 0 ? 0 : Math.round((row.done / finished) * 10_000) / 10_000,
    avgDurationMs: numberOrNull(row.avgDurationMs),
    avgCostUsd: numberOrNull(row.avgCostUsd),
    byStatus: {
      queued: row.queued,
      running: row.running,
      done: row.done,
      failed: row.failed,
      timeout: row.timeout,
    },
  };
}

/** The filters as the repository takes them; `from` must come before `to`. */
function filtersOf(query: AgentTaskFilterInput & { status?: string }): AgentTaskFilters {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from.getTime() >= to.getTime()) {
    throw new ValidationError([{ field: 'querystring.to', message: 'must be later than from' }]);
  }
  return {
    ...(query.namespaceId ? { namespaceId: query.namespaceId } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.adapterType ? { adapterType: query.adapterType } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

/** The agent-task monitor: tasks of the caller's departments, their steps and statistics. */
export function createAgentTasksService(deps: { tasks: AgentTasksRepository }) {
  const { tasks } = deps;
  return {
    /**
     * Tasks of the actor's departments (narrowed by `departmentId`), newest first.
     * @throws ForbiddenError when `departmentId` is outside the actor's departments.
     * @throws ValidationError when `from` is not before `to`.
     */
    async list(
      actor: Actor,
      query: AgentTaskFilterInput & { status?: string; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const scope = departmentScope(actor, query.departmentId);
      const { rows, total } = await tasks.list(scope, filtersOf(query), { limit, offset });
      return { items: rows.map((row) => toAgentTask(row, actor)), total, limit, offset };
    },

    /**
     * One task with its output and tool calls in step order.
     * @throws NotFoundError when missing or outside the actor's departments.
     */
    async get(actor: Actor, id: string) {
      const row = assertVisible(
        actor,
        await tasks.findById(id),
        (t) => t.task.departmentId,
        `Agent task ${id} not found`,
      );
      const calls = await tasks.toolCalls(row.task.id);
      const readable = readsMessageOf(actor, row.senderId);
      return {
        ...toAgentTask(row, actor),
        output: readable ? (row.task.output ?? null) : null,
        toolCalls: calls.map((call) => toToolCall(call, readable)),
      };
    },

    /**
     * Per adapter and namespace: totals, success rate over finished tasks,
     * mean duration and cost of finished tasks, and counts per status.
     * @throws ForbiddenError when `departmentId` is outside the actor's departments.
     * @throws ValidationError when `from` is not before `to`.
     */
    async stats(actor: Actor, query: AgentTaskFilterInput) {
      const scope = departmentScope(actor, query.departmentId);
      const rows = await tasks.stats(scope, filtersOf(query));
      return { stats: rows.map(toStats) };
    },
  };
}

export type AgentTasksService = ReturnType<typeof createAgentTasksService>;
