import type { Actor } from '../../core/auth/actor.js';
import { departmentScope } from '../../core/auth/department-scope.js';
import { ValidationError } from '../../core/errors/app-errors.js';
import type { AnalyticsRepository, AnalyticsWindow } from './analytics.repository.js';

export interface DashboardQuery {
  days?: number;
  departmentId?: string;
  from?: string;
  to?: string;
}

/** The longest window the dashboard covers, as `days` allows. */
export const MAX_DAYS = 90;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;
const TOP_INTENTS = 10;

type Numeric = string | number | null;
const num = (value: Numeric): number => Number(value ?? 0);
/** Rounded to 6 decimals: costs are fractions of a cent, durations milliseconds. */
const round = (value: number) => Math.round(value * 1_000_000) / 1_000_000;
const numOrNull = (value: Numeric): number | null => (value === null ? null : round(Number(value)));
const rate = (part: number, whole: number): number | null => (whole === 0 ? null : round(part / whole));

function invalid(field: string, message: string): ValidationError {
  return new ValidationError([{ field: `querystring.${field}`, message }]);
}

/**
 * The window a query asks for: `from`/`to` when given (to defaults to now),
 * else the last `days` days (30 by default) up to `to` or now.
 */
export function windowOf(query: DashboardQuery, now: Date): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from
    ? new Date(query.from)
    : new Date(to.getTime() - (query.days ?? DEFAULT_DAYS) * DAY_MS);
  if (from.getTime() >= to.getTime()) throw invalid('from', 'must be before to');
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY_MS) {
    throw invalid('from', `the window must not exceed ${MAX_DAYS} days`);
  }
  return { from, to };
}

/** Every UTC day the window touches, as `YYYY-MM-DD`, oldest first. */
export function daysOf(from: Date, to: Date): string[] {
  const days: string[] = [];
  const last = new Date(to.getTime() - 1).toISOString().slice(0, 10);
  for (let t = Date.parse(from.toISOString().slice(0, 10)); ; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(day);
    if (day >= last) return days;
  }
}

const countsOf = <K extends string>(keys: readonly K[], row: Record<K, number> | undefined) =>
  Object.fromEntries(keys.map((key) => [key, row ? num(row[key]) : 0])) as Record<K, number>;

const TASK_STATUSES = ['queued', 'running', 'done', 'failed', 'timeout'] as const;
const APPROVAL_STATUSES = ['pending', 'approved', 'edited', 'rejected', 'escalated'] as const;

/** The analytics dashboard: what the people who run the assistant look at every day. */
export function createAnalyticsService(deps: { analytics: AnalyticsRepository; now?: () => Date }) {
  const { analytics } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * The dashboard over a window (at most 90 days) for the caller's departments, or one of
     * them: messages per channel, tasks by status with mean and p95 duration, tokens and cost,
     * approvals by outcome with the median time to a decision, the autonomy rate, HITL reasons,
     * top intents, and a per-day series of each. Throws ForbiddenError for a departmentId
     * outside the caller's departments, ValidationError for a window that is empty or too long.
     */
    async dashboard(actor: Actor, query: DashboardQuery) {
      const scope = departmentScope(actor, query.departmentId);
      const { from, to } = windowOf(query, now());
      const window: AnalyticsWindow = { from, to, scope };
      const [messageRows, taskRows, taskTotals, approvalRows, approvalTotals, reasonRows, intentRows] =
        await Promise.all([
          analytics.messagesByDay(window),
          analytics.tasksByDay(window),
          analytics.taskTotals(window),
          analytics.approvalsByDay(window),
          analytics.approvalTotals(window),
          analytics.hitlReasonsByDay(window),
          analytics.intentsByDay(window),
        ]);

      const channels = new Map<string, { channel: string; inbound: number; outbound: number }>();
      for (const row of messageRows) {
        const entry = channels.get(row.channel) ?? { channel: row.channel, inbound: 0, outbound: 0 };
        entry.inbound += num(row.inbound);
        entry.outbound += num(row.outbound);
        channels.set(row.channel, entry);
      }
      const byChannel = [...channels.values()].sort((a, b) => a.channel.localeCompare(b.channel));
      const sum = <T>(rows: readonly T[], pick: (row: T) => Numeric) =>
        rows.reduce((total, row) => total + num(pick(row)), 0);
      const replies = sum(messageRows, (r) => r.replies);
      const autonomousReplies = sum(messageRows, (r) => r.autonomousReplies);

      const reasonTotals = new Map<string, number>();
      for (const row of reasonRows)
        reasonTotals.set(row.reason, (reasonTotals.get(row.reason) ?? 0) + num(row.count));
      const intentTotals = new Map<string, number>();
      for (const row of intentRows)
        intentTotals.set(row.intent, (intentTotals.get(row.intent) ?? 0) + num(row.count));
      const ranked = (totals: Map<string, number>) =>
        [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const topIntents = ranked(intentTotals)
        .slice(0, TOP_INTENTS)
        .map(([intent, count]) => ({ intent, count }));
      const topIntentNames = new Set(topIntents.map((i) => i.intent));

      const series = daysOf(from, to).map((date) => {
        const dayMessages = messageRows.filter((r) => r.day === date);
        const tasks = taskRows.find((r) => r.day === date);
        const approvalsOfDay = approvalRows.find((r) => r.day === date);
        const dayReplies = sum(dayMessages, (r) => r.replies);
        const dayAutonomous = sum(dayMessages, (r) => r.autonomousReplies);
        return {
          date,
          messagesIn: sum(dayMessages, (r) => r.inbound),
          messagesOut: sum(dayMessages, (r) => r.outbound),
          tasks: countsOf(['total', ...TASK_STATUSES], tasks),
          avgDurationMs: numOrNull(tasks?.avgDurationMs ?? null),
          p95DurationMs: numOrNull(tasks?.p95DurationMs ?? null),
          totalTokens: num(tasks?.totalTokens ?? 0),
          costUsd: round(num(tasks?.costUsd ?? 0)),
          approvals: countsOf(['total', ...APPROVAL_STATUSES], approvalsOfDay),
          medianDecisionMs: numOrNull(approvalsOfDay?.medianDecisionMs ?? null),
          replies: dayReplies,
          autonomousReplies: dayAutonomous,
          autonomyRate: rate(dayAutonomous, dayReplies),
          hitlReasons: reasonRows
            .filter((r) => r.day === date)
            .map((r) => ({ reason: r.reason, count: num(r.count) }))
            .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
          intents: intentRows
            .filter((r) => r.day === date && topIntentNames.has(r.intent))
            .map((r) => ({ intent: r.intent, count: num(r.count) }))
            .sort((a, b) => b.count - a.count || a.intent.localeCompare(b.intent)),
        };
      });

      return {
        window: {
          from: from.toISOString(),
          to: to.toISOString(),
          departmentId: query.departmentId ?? null,
        },
        messages: {
          inbound: sum(byChannel, (c) => c.inbound),
          outbound: sum(byChannel, (c) => c.outbound),
          byChannel,
        },
        tasks: {
          total: num(taskTotals.total),
          byStatus: countsOf(TASK_STATUSES, taskTotals),
          avgDurationMs: numOrNull(taskTotals.avgDurationMs),
          p95DurationMs: numOrNull(taskTotals.p95DurationMs),
        },
        usage: {
          inputTokens: num(taskTotals.inputTokens),
          outputTokens: num(taskTotals.outputTokens),
          totalTokens: num(taskTotals.totalTokens),
          costUsd: round(num(taskTotals.costUsd)),
        },
        approvals: {
          total: num(approvalTotals.total),
          byStatus: countsOf(APPROVAL_STATUSES, approvalTotals),
          decided: num(approvalTotals.decided),
          medianDecisionMs: numOrNull(approvalTotals.medianDecisionMs),
        },
        autonomy: { replies, autonomousReplies, rate: rate(autonomousReplies, replies) },
        hitlReasons: ranked(reasonTotals).map(([reason, count]) => ({ reason, count })),
        topIntents,
        series,
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
