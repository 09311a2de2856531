import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import type { TrustEvidence } from '../intents/trust-evidence.js';
import { daysOf, windowOf } from './analytics.service.js';
import type { IntentAnalyticsRepository, IntentWindow } from './intent-analytics.repository.js';

export interface IntentAnalyticsQuery {
  namespaceId: string;
  days?: number;
}

/** Minutes one reply sent without a human saves when the namespace does not say (`config.analytics.minutesPerReply`). */
export const DEFAULT_MINUTES_PER_REPLY = 3;
const DEFAULT_DAYS = 30;

type Numeric = string | number | null;
const num = (value: Numeric): number => Number(value ?? 0);
/** Minutes to two decimals: a percentile of seconds-precise durations needs no more. */
const minutesOrNull = (value: Numeric): number | null =>
  value === null ? null : Math.round(Number(value) * 100) / 100;

/** The trust evidence the analytics read: the intents module's, passed in by container.ts. */
export interface TrustEvidenceSource {
  evidence(namespaceId: string): Promise<Map<string, TrustEvidence>>;
}

function minutesPerReplyOf(config: Record<string, unknown>): number {
  const analytics = config.analytics as { minutesPerReply?: unknown } | undefined;
  const value = analytics?.minutesPerReply;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? value
    : DEFAULT_MINUTES_PER_REPLY;
}

/** What an intent's figures start from before the rows are added. */
function emptyIntent(intent: string, dates: readonly string[]) {
  return {
    intent,
    messages: 0,
    autoSent: 0,
    hitl: 0,
    reasons: {} as Record<string, number>,
    decisions: { approved: 0, edited: 0, rejected: 0, escalated: 0 },
    minutesToDecision: { p50: null as number | null, p90: null as number | null },
    feedback: { up: 0, down: 0 },
    daily: new Map(dates.map((date) => [date, { date, messages: 0, autoSent: 0, decisions: 0 }])),
  };
}
type IntentFigures = ReturnType<typeof emptyIntent>;

/** Autonomy analytics: how each intent of a namespace is doing on its way to autonomy. */
export function createIntentAnalyticsService(deps: {
  intentAnalytics: IntentAnalyticsRepository;
  trust: TrustEvidenceSource;
  now?: () => Date;
}) {
  const { intentAnalytics: repo, trust } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * Per intent of a namespace over the last `days` days (30 by default): messages, replies sent
     * without a human, approvals with their reasons and outcomes, minutes to a decision, feedback,
     * the trust evidence, minutes saved, a per-day series, and the namespace's latest completed
     * evaluation run. Intents with a trust record but no traffic are listed with zeros; the list is
     * sorted by messages, most first. Each figure counts the rows its dashboard counterpart counts
     * (docs/analytics.md). Throws NotFoundError for a namespace that is missing or outside the
     * caller's departments.
     */
    async intents(actor: Actor, query: IntentAnalyticsQuery) {
      const days = query.days ?? DEFAULT_DAYS;
      const namespace = assertVisible(
        actor,
        await repo.namespace(query.namespaceId),
        (n) => n.departmentId,
        `Namespace ${query.namespaceId} not found`,
      );
      const { from, to } = windowOf({ days }, now());
      const window: IntentWindow = { namespaceId: namespace.id, from, to };
      const dates = daysOf(from, to);
      const [
        messageRows,
        autoSentRows,
        approvalRows,
        minuteRows,
        reasonRows,
        feedbackRows,
        evaluation,
        evidence,
      ] = await Promise.all([
        repo.messagesByDay(window),
        repo.autoSentByDay(window),
        repo.approvalsByDay(window),
        repo.decisionMinutes(window),
        repo.reasons(window),
        repo.feedback(window),
        repo.latestEvaluation(namespace.id),
        trust.evidence(namespace.id),
      ]);

      const byIntent = new Map<string, IntentFigures>();
      const figures = (intent: string) => {
        let entry = byIntent.get(intent);
        if (!entry) {
          entry = emptyIntent(intent, dates);
          byIntent.set(intent, entry);
        }
        return entry;
      };

      for (const row of messageRows) {
        const entry = figures(row.intent);
        entry.messages += num(row.count);
        const day = entry.daily.get(row.day);
        if (day) day.messages += num(row.count);
      }
      for (const row of autoSentRows) {
        const entry = figures(row.intent);
        entry.autoSent += num(row.count);
        const day = entry.daily.get(row.day);
        if (day) day.autoSent += num(row.count);
      }
      for (const row of approvalRows) {
        const entry = figures(row.intent);
        entry.hitl += num(row.total);
        const decided = {
          approved: num(row.approved),
          edited: num(row.edited),
          rejected: num(row.rejected),
          escalated: num(row.escalated),
        };
        for (const key of Object.keys(decided) as Array<keyof typeof decided>)
          entry.decisions[key] += decided[key];
        const day = entry.daily.get(row.day);
        if (day) day.decisions += decided.approved + decided.edited + decided.rejected + decided.escalated;
      }
      for (const row of minuteRows) {
        figures(row.intent).minutesToDecision = { p50: minutesOrNull(row.p50), p90: minutesOrNull(row.p90) };
      }
      for (const row of reasonRows) {
        const entry = figures(row.intent);
        entry.reasons[row.reason] = (entry.reasons[row.reason] ?? 0) + num(row.count);
      }
      for (const row of feedbackRows) {
        const entry = figures(row.intent);
        entry.feedback = { up: entry.feedback.up + num(row.up), down: entry.feedback.down + num(row.down) };
      }
      for (const name of evidence.keys()) figures(name);

      const minutesPerReply = minutesPerReplyOf(namespace.config);
      const run = evaluationView(evaluation);
      const intents = [...byIntent.values()]
        .sort((a, b) => b.messages - a.messages || a.intent.localeCompare(b.intent))
        .map((entry) => ({
          intent: entry.intent,
          messages: entry.messages,
          autoSent: entry.autoSent,
          hitl: entry.hitl,
          reasons: entry.reasons,
          decisions: entry.decisions,
          minutesToDecision: entry.minutesToDecision,
          feedback: entry.feedback,
          trust: trustView(evidence.get(entry.intent)),
          minutesSaved: Math.round(entry.autoSent * minutesPerReply * 100) / 100,
          evaluation: run,
          daily: [...entry.daily.values()],
        }));

      return {
        namespaceId: namespace.id,
        days,
        from: from.toISOString(),
        to: to.toISOString(),
        intents,
      };
    },
  };
}

/** The namespace's latest completed evaluation run as each intent shows it, or null. */
function evaluationView(
  run: { id: string; totals: Record<string, number | null> | null; finishedAt: Date | null } | null,
) {
  if (!run?.totals || !run.finishedAt) return null;
  return {
    runId: run.id,
    correct: num(run.totals.correct ?? 0),
    total: num(run.totals.cases ?? 0),
    at: run.finishedAt.toISOString(),
  };
}

/** What the analytics show of an intent's trust; null for an intent with no trust record or events. */
function trustView(evidence: TrustEvidence | undefined) {
  if (!evidence) return null;
  const { isAutonomous, mode, successfulCount, threshold, lowerBound, neededForPromotion } = evidence;
  return { isAutonomous, mode, successfulCount, threshold, lowerBound, neededForPromotion };
}

export type IntentAnalyticsService = ReturnType<typeof createIntentAnalyticsService>;
