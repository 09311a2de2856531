import { and, desc, gte, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import { agentTasks, approvals, conversations, messages } from '../../core/db/schema/index.js';

/** The window and scope every dashboard query shares. */
export interface AnalyticsWindow {
  from: Date;
  to: Date;
  scope: DepartmentScope;
}

/** The UTC day of a timestamp as `YYYY-MM-DD`, the series' key. */
const dayOf = (column: PgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
const int = (expression: SQL) => sql<number>`(${expression})::int`;
/** Numbers that may be null (no rows) come back as strings or numbers depending on the driver. */
type Numeric = string | number | null;

function within(column: PgColumn, window: AnalyticsWindow, departmentColumn: PgColumn) {
  return and(gte(column, window.from), lt(column, window.to), scopeCondition(window.scope, departmentColumn));
}

/**
 * The dashboard's aggregates, each one SQL statement over an indexed
 * (department, created_at) range, grouped by UTC day so the service can
 * both sum the totals and keep the series. Percentiles are computed by the
 * database (`percentile_cont`), per day and over the whole window.
 */
export function createAnalyticsRepository(db: Database) {
  return {
    /** Messages by day, channel and direction; replies (outbound with a task) and those sent without a human. */
    messagesByDay(window: AnalyticsWindow) {
      const day = dayOf(messages.createdAt);
      return db
        .select({
          day,
          channel: messages.channel,
          inbound: int(sql`count(*) filter (where ${messages.direction} = 'inbound')`),
          outbound: int(sql`count(*) filter (where ${messages.direction} = 'outbound')`),
          replies: int(
            sql`count(*) filter (where ${messages.direction} = 'outbound' and ${messages.taskId} is not null)`,
          ),
          autonomousReplies: int(
            sql`count(*) filter (where ${messages.direction} = 'outbound' and ${messages.taskId} is not null and ${messages.approvalId} is null)`,
          ),
        })
        .from(messages)
        .innerJoin(conversations, sql`${conversations.id} = ${messages.conversationId}`)
        .where(within(messages.createdAt, window, conversations.departmentId))
        .groupBy(day, messages.channel);
    },

    /** Tasks by day: counts by status, tokens, cost, and the duration's mean and 95th percentile. */
    tasksByDay(window: AnalyticsWindow) {
      const day = dayOf(agentTasks.createdAt);
      return db
        .select({ day, ...taskColumns() })
        .from(agentTasks)
        .where(within(agentTasks.createdAt, window, agentTasks.departmentId))
        .groupBy(day);
    },

    /** The same figures over the whole window (percentiles do not add up across days). */
    async taskTotals(window: AnalyticsWindow) {
      const [row] = await db
        .select(taskColumns())
        .from(agentTasks)
        .where(within(agentTasks.createdAt, window, agentTasks.departmentId));
      return row!;
    },

    /** Approvals by day: counts by status and the median time from creation to decision. */
    approvalsByDay(window: AnalyticsWindow) {
      const day = dayOf(approvals.createdAt);
      return db
        .select({ day, ...approvalColumns() })
        .from(approvals)
        .where(within(approvals.createdAt, window, approvals.departmentId))
        .groupBy(day);
    },

    async approvalTotals(window: AnalyticsWindow) {
      const [row] = await db
        .select(approvalColumns())
        .from(approvals)
        .where(within(approvals.createdAt, window, approvals.departmentId));
      return row!;
    },

    /** Why replies went to a human: each trigger type of each approval, by day. */
    hitlReasonsByDay(window: AnalyticsWindow) {
      const day = dayOf(approvals.createdAt);
      const reason = sql<string>`trigger ->> 'type'`;
      return db
        .select({ day, reason, count: int(sql`count(*)`) })
        .from(sql`${approvals} cross join lateral jsonb_array_elements(${approvals.triggers}) as trigger`)
        .where(within(approvals.createdAt, window, approvals.departmentId))
        .groupBy(day, reason);
    },

    /** Classified intents of finished tasks, by day. */
    intentsByDay(window: AnalyticsWindow) {
      const day = dayOf(agentTasks.createdAt);
      const intent = sql<string>`${agentTasks.output} ->> 'intent'`;
      return db
        .select({ day, intent, count: int(sql`count(*)`) })
        .from(agentTasks)
        .where(and(within(agentTasks.createdAt, window, agentTasks.departmentId), isNotNull(intent)))
        .groupBy(day, intent)
        .orderBy(desc(sql`count(*)`));
    },
  };
}

function taskColumns() {
  const status = (value: string) => int(sql`count(*) filter (where ${agentTasks.status} = ${value})`);
  return {
    total: int(sql`count(*)`),
    queued: status('queued'),
    running: status('running'),
    done: status('done'),
    failed: status('failed'),
    timeout: status('timeout'),
    inputTokens: sql<Numeric>`coalesce(sum(${agentTasks.inputTokens}), 0)`,
    outputTokens: sql<Numeric>`coalesce(sum(${agentTasks.outputTokens}), 0)`,
    totalTokens: sql<Numeric>`coalesce(sum(${agentTasks.totalTokens}), 0)`,
    costUsd: sql<Numeric>`coalesce(sum(${agentTasks.costUsd}), 0)`,
    avgDurationMs: sql<Numeric>`avg(${agentTasks.durationMs})`,
    p95DurationMs: sql<Numeric>`percentile_cont(0.95) within group (order by ${agentTasks.durationMs})`,
  };
}

function approvalColumns() {
  const status = (value: string) => int(sql`count(*) filter (where ${approvals.status} = ${value})`);
  const decisionMs = sql`extract(epoch from (${approvals.decidedAt} - ${approvals.createdAt})) * 1000`;
  return {
    total: int(sql`count(*)`),
    pending: status('pending'),
    approved: status('approved'),
    edited: status('edited'),
    rejected: status('rejected'),
    escalated: status('escalated'),
    decided: int(sql`count(${approvals.decidedAt})`),
    medianDecisionMs: sql<Numeric>`percentile_cont(0.5) within group (order by ${decisionMs})`,
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
