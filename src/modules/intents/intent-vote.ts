/** The intent answered when no stored intent is close enough. */
export const UNKNOWN_INTENT = 'unknown';
/** How many nearest examples vote. */
export const VOTING_NEIGHBOURS = 5;
/** Below this confidence the answer is {@link UNKNOWN_INTENT}. */
export const MIN_INTENT_CONFIDENCE = 0.5;

/** One stored example near the message. */
export interface Neighbour {
  intentName: string;
  /** Cosine similarity to the message. */
  similarity: number;
}

export interface IntentScore {
  intent: string;
  confidence: number;
}

export interface Classification {
  intent: string;
  confidence: number;
  alternatives: IntentScore[];
}

/** How the vote reads similarities. */
export interface VoteOptions {
  /** Below this confidence the answer is {@link UNKNOWN_INTENT}; default {@link MIN_INTENT_CONFIDENCE}. */
  minConfidence?: number;
  /**
   * The embedder's cosine at or above which a message and an example say the
   * same thing (`EmbeddingProvider.matchSimilarity`); default 1, raw cosine.
   */
  matchSimilarity?: number;
}

/**
 * The k-nearest vote over the examples closest to a message:
 *
 * - each neighbour's similarity is clamped to [0, 1] and it votes with the
 *   square of it, so one close example outweighs several distant ones (an
 *   exact copy of an example, similarity 1, is not outvoted by four
 *   unrelated neighbours at 0.3);
 * - an intent's share is its votes over all votes;
 * - its closeness is its best similarity read against the embedder's
 *   `matchSimilarity`: best ÷ matchSimilarity, at most 1. With raw cosine
 *   (an embedding model) that is the best similarity itself; the lexical
 *   offline embedder puts paraphrases near 0.33, which then reads as 1;
 * - its confidence is share × closeness: high only when the neighbours agree
 *   AND one of them is really close, so unrelated text, whose nearest
 *   examples are all far, scores low however they vote;
 * - the best intent wins when its confidence is at least `minConfidence`,
 *   else the answer is `unknown` with that best confidence. `alternatives`
 *   are the other candidates (all of them for `unknown`), best first.
 *
 * Ties go to the alphabetically first intent, so the answer is deterministic.
 * No neighbours: `unknown` with confidence 0.
 */
export function voteIntent(neighbours: readonly Neighbour[], options: VoteOptions = {}): Classification {
  const minConfidence = options.minConfidence ?? MIN_INTENT_CONFIDENCE;
  const match =
    options.matchSimilarity !== undefined && options.matchSimilarity > 0 ? options.matchSimilarity : 1;
  const tally = new Map<string, { votes: number; best: number }>();
  let total = 0;
  for (const { intentName, similarity } of neighbours) {
    const s = Number.isFinite(similarity) ? Math.min(1, Math.max(0, similarity)) : 0;
    const vote = s * s;
    total += vote;
    const entry = tally.get(intentName) ?? { votes: 0, best: 0 };
    entry.votes += vote;
    entry.best = Math.max(entry.best, s);
    tally.set(intentName, entry);
  }
  const scores: IntentScore[] = [...tally].map(([intent, { votes, best }]) => ({
    intent,
    confidence: total > 0 ? round((votes / total) * Math.min(1, best / match)) : 0,
  }));
  scores.sort((a, b) => b.confidence - a.confidence || a.intent.localeCompare(b.intent));
  const [best, ...rest] = scores;
  if (!best) return { intent: UNKNOWN_INTENT, confidence: 0, alternatives: [] };
  if (best.confidence < minConfidence) {
    return { intent: UNKNOWN_INTENT, confidence: best.confidence, alternatives: scores };
  }
  return { intent: best.intent, confidence: best.confidence, alternatives: rest };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
