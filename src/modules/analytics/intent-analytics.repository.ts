import { and, desc, eq, gte, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../core/db/client.js';
import {
  agentTasks,
  approvals,
  evalRuns,
  messages,
  namespaces,
  replyFeedback,
} from '../../core/db/schema/index.js';
import { UNKNOWN_INTENT } from '../intents/intent-vote.js';

/** One namespace over a window: what every per-intent query shares. */
export interface IntentWindow {
  namespaceId: string;
  from: Date;
  to: Date;
}

/** The UTC day of a timestamp as `YYYY-MM-DD`, the series' key (as the dashboard's). */
const dayOf = (column: PgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
const int = (expression: SQL) => sql<number>`(${expression})::int`;
/** Numbers that may be null (no rows) come back as strings or numbers depending on the driver. */
type Numeric = string | number | null;

/** The intent a task classified, as the dashboard's top intents read it. */
const taskIntent = sql<string>`${agentTasks.output} ->> 'intent'`;
/** The intent of an approval: the pipeline writes the task's intent on it; one without reads as `unknown`. */
// A literal, not a parameter: the expression is grouped by, and two parameters are two expressions to PostgreSQL.
const approvalIntent = sql<string>`coalesce(${approvals.intent}, ${sql.raw(`'${UNKNOWN_INTENT}'`)})`;

const within = (column: PgColumn, window: IntentWindow) =>
  and(gte(column, window.from), lt(column, window.to));

/**
 * The autonomy analytics' aggregates of one namespace, grouped by intent (and UTC day where the
 * series needs it). Each figure uses the same rows and time column as its dashboard counterpart
 * (analytics.repository.ts), narrowed to the namespace, so the two agree (docs/analytics.md).
 */
export function createIntentAnalyticsRepository(db: Database) {
  return {
    /** The namespace's department (for the scope check) and config (minutes per reply). */
    async namespace(namespaceId: string) {
      const [row] = await db
        .select({ id: namespaces.id, departmentId: namespaces.departmentId, config: namespaces.config })
        .from(namespaces)
        .where(eq(namespaces.id, namespaceId));
      return row ?? null;
    },

    /** Tasks of the namespace created in the window that classified an intent, by day and intent. */
    messagesByDay(window: IntentWindow) {
      const day = dayOf(agentTasks.createdAt);
      return db
        .select({ day, intent: taskIntent, count: int(sql`count(*)`) })
        .from(agentTasks)
        .where(
          and(
            eq(agentTasks.namespaceId, window.namespaceId),
            within(agentTasks.createdAt, window),
            isNotNull(taskIntent),
          ),
        )
        .groupBy(day, taskIntent);
    },

    /** Replies written in the window without an approval, by day and their task's intent. */
    autoSentByDay(window: IntentWindow) {
      const day = dayOf(messages.createdAt);
      return db
        .select({ day, intent: taskIntent, count: int(sql`count(*)`) })
        .from(messages)
        .innerJoin(agentTasks, eq(agentTasks.id, messages.taskId))
        .where(
          and(
            eq(agentTasks.namespaceId, window.namespaceId),
            eq(messages.direction, 'outbound'),
            sql`${messages.approvalId} is null`,
            within(messages.createdAt, window),
            isNotNull(taskIntent),
          ),
        )
        .groupBy(day, taskIntent);
    },

    /** Approvals of the namespace created in the window, by day, intent and status. */
    approvalsByDay(window: IntentWindow) {
      const day = dayOf(approvals.createdAt);
      const status = (value: string) => int(sql`count(*) filter (where ${approvals.status} = ${value})`);
      return db
        .select({
          day,
          intent: approvalIntent,
          total: int(sql`count(*)`),
          approved: status('approved'),
          edited: status('edited'),
          rejected: status('rejected'),
          escalated: status('escalated'),
        })
        .from(approvals)
        .where(and(eq(approvals.namespaceId, window.namespaceId), within(approvals.createdAt, window)))
        .groupBy(day, approvalIntent);
    },

    /** The 50th and 90th percentile of minutes from creation to decision, by intent. */
    decisionMinutes(window: IntentWindow) {
      const minutes = sql`extract(epoch from (${approvals.decidedAt} - ${approvals.createdAt})) / 60`;
      return db
        .select({
          intent: approvalIntent,
          p50: sql<Numeric>`percentile_cont(0.5) within group (order by ${minutes})`,
          p90: sql<Numeric>`percentile_cont(0.9) within group (order by ${minutes})`,
        })
        .from(approvals)
        .where(
          and(
            eq(approvals.namespaceId, window.namespaceId),
            within(approvals.createdAt, window),
            isNotNull(approvals.decidedAt),
          ),
        )
        .groupBy(approvalIntent);
    },

    /** Each HITL trigger type of each approval created in the window, by intent. */
    reasons(window: IntentWindow) {
      const reason = sql<string>`trigger ->> 'type'`;
      return db
        .select({ intent: approvalIntent, reason, count: int(sql`count(*)`) })
        .from(sql`${approvals} cross join lateral jsonb_array_elements(${approvals.triggers}) as trigger`)
        .where(and(eq(approvals.namespaceId, window.namespaceId), within(approvals.createdAt, window)))
        .groupBy(approvalIntent, reason);
    },

    /** Ratings given in the window to replies of the namespace's tasks, by intent. */
    feedback(window: IntentWindow) {
      return db
        .select({
          intent: taskIntent,
          up: int(sql`count(*) filter (where ${replyFeedback.rating} = 'up')`),
          down: int(sql`count(*) filter (where ${replyFeedback.rating} = 'down')`),
        })
        .from(replyFeedback)
        .innerJoin(messages, eq(messages.id, replyFeedback.messageId))
        .innerJoin(agentTasks, eq(agentTasks.id, messages.taskId))
        .where(
          and(
            eq(agentTasks.namespaceId, window.namespaceId),
            within(replyFeedback.createdAt, window),
            isNotNull(taskIntent),
          ),
        )
        .groupBy(taskIntent);
    },

    /** The namespace's most recently finished, completed evaluation run, or null. */
    async latestEvaluation(namespaceId: string) {
      const [row] = await db
        .select({ id: evalRuns.id, totals: evalRuns.totals, finishedAt: evalRuns.finishedAt })
        .from(evalRuns)
        .where(
          and(
            eq(evalRuns.namespaceId, namespaceId),
            eq(evalRuns.status, 'completed'),
            isNotNull(evalRuns.finishedAt),
          ),
        )
        .orderBy(desc(evalRuns.finishedAt), desc(evalRuns.id))
        .limit(1);
      return row ?? null;
    },
  };
}

export type IntentAnalyticsRepository = ReturnType<typeof createIntentAnalyticsRepository>;
