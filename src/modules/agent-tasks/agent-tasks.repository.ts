import { and, asc, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { agentTasks, agentToolCalls, conversations, messages, users } from '../../core/db/schema/index.js';

export type AgentTaskRow = typeof agentTasks.$inferSelect;
/** A task with the inbound message it answers and who sent it (null when the task has none). */
export interface AgentTaskListRow {
  task: AgentTaskRow;
  messageText: string | null;
  channel: string | null;
  senderId: string | null;
  senderName: string | null;
}
export type ToolCallRow = typeof agentToolCalls.$inferSelect;

export interface AgentTaskFilters {
  namespaceId?: string;
  status?: string;
  adapterType?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

export interface AgentTaskStatsRow {
  adapterType: string;
  namespaceId: string | null;
  total: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
  timeout: number;
  /** Numeric aggregates arrive as strings from some drivers; the service converts them. */
  avgDurationMs: string | number | null;
  avgCostUsd: string | number | null;
}

const sender = alias(users, 'sender');
const asked = alias(messages, 'asked');

/** The task, its inbound message's text, the conversation's channel and the employee who sent it. */
const listColumns = {
  task: agentTasks,
  messageText: asked.content,
  channel: conversations.channel,
  senderId: sender.id,
  senderName: sender.name,
};

/** The four pipeline steps in order; an adapter call or unknown step sorts after them by time. */
const STEP_ORDER = sql`case ${agentToolCalls.stepName}
  when 'inject_profile' then 0 when 'rag_search' then 1 when 'generate' then 2 when 'confidence_check' then 3
  else 4 end`;

const FINISHED = sql`${agentTasks.status} in ('done', 'failed', 'timeout')`;

const countWhere = (status: string) =>
  sql<number>`count(*) filter (where ${agentTasks.status} = ${status})`.mapWith(Number);

function conditions(scope: DepartmentScope, filters: AgentTaskFilters): SQL | undefined {
  return and(
    scopeCondition(scope, agentTasks.departmentId),
    filters.namespaceId ? eq(agentTasks.namespaceId, filters.namespaceId) : undefined,
    filters.status ? eq(agentTasks.status, filters.status) : undefined,
    filters.adapterType ? eq(agentTasks.adapterType, filters.adapterType) : undefined,
    filters.from ? gte(agentTasks.createdAt, filters.from) : undefined,
    filters.to ? lt(agentTasks.createdAt, filters.to) : undefined,
  );
}

/** Read side of agent tasks: lists, one task with its tool calls, statistics. */
export function createAgentTasksRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<AgentTaskListRow | null> {
      const [row] = await tx
        .select(listColumns)
        .from(agentTasks)
        .leftJoin(asked, eq(asked.id, agentTasks.messageId))
        .leftJoin(conversations, eq(conversations.id, agentTasks.conversationId))
        .leftJoin(sender, eq(sender.id, conversations.userId))
        .where(eq(agentTasks.id, id))
        .limit(1);
      return row ?? null;
    },

    /** Tasks inside `scope` matching the filters, newest first. */
    async list(
      scope: DepartmentScope,
      filters: AgentTaskFilters,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: AgentTaskListRow[]; total: number }> {
      const where = conditions(scope, filters);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select(listColumns)
            .from(agentTasks)
            .leftJoin(asked, eq(asked.id, agentTasks.messageId))
            .leftJoin(conversations, eq(conversations.id, agentTasks.conversationId))
            .leftJoin(sender, eq(sender.id, conversations.userId))
            .where(where)
            .orderBy(desc(agentTasks.createdAt), desc(agentTasks.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(agentTasks).where(where),
      });
    },

    /** The task's tool calls in step order (then in the order they were written). */
    async toolCalls(taskId: string, tx: DbExecutor = db): Promise<ToolCallRow[]> {
      return tx
        .select()
        .from(agentToolCalls)
        .where(eq(agentToolCalls.taskId, taskId))
        .orderBy(STEP_ORDER, asc(agentToolCalls.createdAt), asc(agentToolCalls.id));
    },

    /** Counts and averages per (adapterType, namespaceId) inside `scope`, the busiest group first. */
    async stats(scope: DepartmentScope, filters: AgentTaskFilters, tx: DbExecutor = db) {
      const rows: AgentTaskStatsRow[] = await tx
        .select({
          adapterType: agentTasks.adapterType,
          namespaceId: agentTasks.namespaceId,
          total: count(),
          queued: countWhere('queued'),
          running: countWhere('running'),
          done: countWhere('done'),
          failed: countWhere('failed'),
          timeout: countWhere('timeout'),
          avgDurationMs: sql<
            string | number | null
          >`avg(${agentTasks.durationMs}) filter (where ${FINISHED})`,
          avgCostUsd: sql<string | number | null>`avg(${agentTasks.costUsd}) filter (where ${FINISHED})`,
        })
        .from(agentTasks)
        .where(conditions(scope, filters))
        .groupBy(agentTasks.adapterType, agentTasks.namespaceId)
        .orderBy(desc(count()), asc(agentTasks.adapterType), asc(agentTasks.namespaceId));
      return rows;
    },
  };
}

export type AgentTasksRepository = ReturnType<typeof createAgentTasksRepository>;
