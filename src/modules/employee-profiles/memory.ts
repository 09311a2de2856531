/**
 * The profile memory the pipeline keeps after each task, without a model:
 * the employee's most frequent intents and a short rolling summary of what
 * they asked last. Pure functions over plain data.
 */

/** frequentIntents holds at most this many intents. */
export const FREQUENT_INTENTS_LIMIT = 5;
/** The summary quotes this many of the latest questions. */
export const RECENT_QUESTIONS = 3;
const QUESTION_CHARS = 80;
export const SUMMARY_MAX_CHARS = 500;

/** Intents by how often they were asked, most frequent first (ties: most recent first), capped. */
export function rankIntents(
  counts: ReadonlyArray<{ intent: string; count: number; lastAt: Date }>,
  limit = FREQUENT_INTENTS_LIMIT,
): string[] {
  return [...counts]
    .sort(
      (a, b) =>
        b.count - a.count || b.lastAt.getTime() - a.lastAt.getTime() || a.intent.localeCompare(b.intent),
    )
    .slice(0, limit)
    .map((row) => row.intent);
}

/**
 * The rolling summary: the latest questions (newest first, each cut to a
 * short line) and the frequent topics, in at most {@link SUMMARY_MAX_CHARS}.
 */
export function rollingSummary(
  recentQuestions: readonly string[],
  frequentIntents: readonly string[],
): string {
  const lines: string[] = [];
  const quoted = recentQuestions
    .slice(0, RECENT_QUESTIONS)
    .map((q) => q.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((q) => `"${q.length > QUESTION_CHARS ? `${q.slice(0, QUESTION_CHARS - 1)}…` : q}"`);
  if (quoted.length > 0) lines.push(`Recently asked: ${quoted.join('; ')}.`);
  if (frequentIntents.length > 0) lines.push(`Frequent topics: ${frequentIntents.join(', ')}.`);
  const summary = lines.join(' ');
  return summary.length > SUMMARY_MAX_CHARS ? `${summary.slice(0, SUMMARY_MAX_CHARS - 1)}…` : summary;
}
