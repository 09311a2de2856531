import { keywordFeatures } from './intent-keywords.js';
import {
  type Classification,
  type IntentScore,
  MIN_INTENT_CONFIDENCE,
  UNKNOWN_INTENT,
  VOTING_NEIGHBOURS,
} from './intent-vote.js';

/** One stored example as the model reads it. */
export interface ModelExample {
  intentName: string;
  text: string;
  vector: Float32Array;
}

/**
 * How much each kind of evidence counts in an intent's score (they add up
 * to 1): the nearest-example vote, the closeness to the intent's centroid
 * (the mean of its examples, which no single odd example dominates), and the
 * intent's distinctive words (tf-idf over intents). Chosen on the team's
 * development sets (docs/intents.md).
 */
export const EVIDENCE_WEIGHTS = { neighbours: 0.2, centroid: 0.4, keywords: 0.4 } as const;

/**
 * Keyword evidence `w` reads as 1 − e^(−w / KEYWORD_SCALE): a stem found in
 * every example of one intent of twelve (idf ln 12 ≈ 2.5) reads ≈ 0.71; in
 * one example of twenty, ≈ 0.06.
 */
export const KEYWORD_SCALE = 2;

/** A namespace needs this many examples (and two intents) for its own threshold; below, the default applies. */
export const MIN_CALIBRATION_EXAMPLES = 20;
/** Examples read at most to calibrate (an even sample of larger namespaces). */
export const CALIBRATION_SAMPLE = 400;
/** The share of "message of an intent the namespace lacks" stand-ins the threshold keeps out. */
export const CALIBRATION_QUANTILE = 0.9;
/** The share of stored examples (each left out) the threshold must still recognise at least. */
export const CALIBRATION_KEEP = 0.75;
/**
 * A calibrated threshold stays within these bounds. At least 0.3: a small
 * namespace whose intents share no words calibrates very low, yet an
 * unrelated message still gathers ~0.15 from letter n-grams alone.
 */
export const THRESHOLD_BOUNDS = [0.3, 0.85] as const;
/** Alternatives answered at most. */
export const MAX_ALTERNATIVES = 4;
/** A similarity at or above this is an exact copy of an example: its intent with confidence 1. */
const EXACT_COPY = 0.9999;

/**
 * Example vectors laid out by dimension: `columns[d * count + e]` is
 * component d of example e. A message's vector touches a few hundred
 * dimensions, and each is then one pass over consecutive memory for all
 * examples, instead of a scattered read in each example's 6 KB vector.
 */
export interface HeldExamples {
  count: number;
  dimensions: number;
  columns: Float32Array;
  norms: Float64Array;
}

/** A namespace's examples, ready to score messages against. */
export interface IntentModel {
  /** Intent names, sorted (ties go to the first). */
  intents: string[];
  /** Per example, the index of its intent in `intents`. */
  intentOf: Int32Array;
  held: HeldExamples;
  /** Per intent, the sum of its examples' unit vectors, and that sum's length. */
  centroids: Float64Array[];
  centroidNorms: Float64Array;
  /** Per intent, its number of examples. */
  sizes: Int32Array;
  /** Per keyword feature, how many examples of each intent have it. */
  keywordCounts: Map<string, Int32Array>;
  exampleFeatures: Array<Set<string>>;
  /** The embedder's `matchSimilarity` (1: raw cosine). */
  matchSimilarity: number;
  /** The score line of this namespace: calibrated, or the default. */
  threshold: number;
  calibrated: boolean;
}

/** What is scored: a text's vector and keyword features. */
export interface ScoredText {
  vector: Float32Array;
  features: Set<string>;
}

/** Scores of every intent for one text, and the intent of an exact copy (-1: none). */
interface IntentScores {
  scores: Float64Array;
  exact: number;
  similarities: Float64Array;
}

/** Leaves one example, or one whole intent, out of a scoring (for calibration). */
interface LeaveOut {
  example?: number;
  intent?: number;
}

/** Lays `vectors` out by dimension (a shorter vector's missing components are 0). */
export function heldExamples(vectors: readonly Float32Array[]): HeldExamples {
  const count = vectors.length;
  const dimensions = vectors.reduce((most, vector) => Math.max(most, vector.length), 0);
  const columns = new Float32Array(dimensions * count);
  for (const [e, vector] of vectors.entries())
    for (let d = 0; d < vector.length; d++) columns[d * count + e] = vector[d]!;
  return { count, dimensions, columns, norms: Float64Array.from(vectors, (v) => Math.sqrt(dot(v, v))) };
}

/**
 * The dot product of `query` with every example. Each example's sum adds
 * its terms in the order of the dimensions, skipping those where the query
 * is 0 (their terms are zero), so each is the dense dot product to the bit.
 */
export function dotsWith(query: Float32Array, examples: HeldExamples): Float64Array {
  const { count, columns } = examples;
  const sums = new Float64Array(count);
  const dimensions = Math.min(query.length, examples.dimensions);
  for (let d = 0; d < dimensions; d++) {
    const q = query[d]!;
    if (q === 0) continue;
    const offset = d * count;
    for (let e = 0; e < count; e++) sums[e]! += q * columns[offset + e]!;
  }
  return sums;
}

/**
 * Builds a namespace's model from its examples: intents, vectors by
 * dimension, centroids, keyword counts, and its threshold calibrated from
 * the examples themselves ({@link calibrateThreshold}).
 */
export function buildIntentModel(examples: readonly ModelExample[], matchSimilarity = 1): IntentModel {
  const intents = [...new Set(examples.map((e) => e.intentName))].sort();
  const index = new Map(intents.map((name, i) => [name, i]));
  const intentOf = Int32Array.from(examples, (e) => index.get(e.intentName)!);
  const held = heldExamples(examples.map((e) => e.vector));
  const dimensions = held.dimensions;
  const centroids = intents.map(() => new Float64Array(dimensions));
  const sizes = new Int32Array(intents.length);
  const keywordCounts = new Map<string, Int32Array>();
  const exampleFeatures = examples.map((e) => keywordFeatures(e.text));
  examples.forEach((example, e) => {
    const i = intentOf[e]!;
    sizes[i]!++;
    const norm = held.norms[e]!;
    if (norm > 0) {
      const centroid = centroids[i]!;
      for (let d = 0; d < example.vector.length; d++) centroid[d]! += example.vector[d]! / norm;
    }
    for (const feature of exampleFeatures[e]!) {
      const counts = keywordCounts.get(feature) ?? new Int32Array(intents.length);
      counts[i]!++;
      keywordCounts.set(feature, counts);
    }
  });
  const model: IntentModel = {
    intents,
    intentOf,
    held,
    centroids,
    centroidNorms: Float64Array.from(centroids, (c) => Math.sqrt(dot(c, c))),
    sizes,
    keywordCounts,
    exampleFeatures,
    matchSimilarity: matchSimilarity > 0 ? matchSimilarity : 1,
    threshold: MIN_INTENT_CONFIDENCE,
    calibrated: false,
  };
  const threshold = calibrateThreshold(model);
  if (threshold !== null) Object.assign(model, { threshold, calibrated: true });
  return model;
}

/** The keyword features of a text with its vector, ready for {@link classifyWithModel}. */
export function scoredText(text: string, vector: readonly number[] | Float32Array): ScoredText {
  return { vector: Float32Array.from(vector), features: keywordFeatures(text) };
}

/**
 * Every intent's score in [0, 1] for one text: the weighted sum
 * ({@link EVIDENCE_WEIGHTS}) of
 *
 * - the nearest-example vote: the {@link VOTING_NEIGHBOURS} nearest examples
 *   vote with their squared similarity; an intent's share of the votes times
 *   its closeness (best similarity ÷ matchSimilarity, at most 1);
 * - the centroid: cosine with the intent's centroid ÷ matchSimilarity, at most 1;
 * - keywords: Σ over the text's features of (share of the intent's examples
 *   with it) × ln(intents ÷ intents having it), read as 1 − e^(−Σ / KEYWORD_SCALE).
 *   A word every intent uses weighs nothing; one only this intent's examples
 *   use weighs most.
 */
function scoreIntents(model: IntentModel, text: ScoredText, leaveOut: LeaveOut = {}): IntentScores {
  const { intents, intentOf, held, matchSimilarity: match } = model;
  const skip = (e: number) => e === leaveOut.example || intentOf[e] === leaveOut.intent;
  const n = intents.length;
  const scores = new Float64Array(n);
  const queryNorm = Math.sqrt(dot(text.vector, text.vector));
  const similarities = new Float64Array(held.count);
  let exact = -1;

  // Nearest examples and centroids.
  const votes = new Float64Array(n);
  const best = new Float64Array(n);
  const centroidDots = new Float64Array(n);
  if (queryNorm > 0) {
    const dots = dotsWith(text.vector, held);
    const top: number[] = [];
    let bestSimilarity = -1;
    for (let e = 0; e < held.count; e++) {
      const norm = held.norms[e]!;
      similarities[e] = norm > 0 ? dots[e]! / (queryNorm * norm) : 0;
      if (skip(e)) continue;
      if (norm > 0) centroidDots[intentOf[e]!]! += dots[e]! / norm;
      if (similarities[e]! > bestSimilarity) {
        bestSimilarity = similarities[e]!;
        exact = bestSimilarity >= EXACT_COPY ? intentOf[e]! : -1;
      }
      insertTop(top, e, similarities, VOTING_NEIGHBOURS);
    }
    let total = 0;
    for (const e of top) {
      const s = clamp01(similarities[e]!);
      votes[intentOf[e]!]! += s * s;
      total += s * s;
      best[intentOf[e]!] = Math.max(best[intentOf[e]!]!, s);
    }
    for (let i = 0; i < n; i++) {
      if (i === leaveOut.intent) continue;
      const neighbours = total > 0 ? (votes[i]! / total) * Math.min(1, best[i]! / match) : 0;
      let centroidNorm = model.centroidNorms[i]!;
      if (leaveOut.example !== undefined && intentOf[leaveOut.example] === i) {
        // |c − ê|² = |c|² − 2 c·ê + 1, where c·ê is the sum of the similarities to the intent's examples (the text is ê).
        let within = 0;
        for (let e = 0; e < held.count; e++) if (intentOf[e] === i) within += similarities[e]!;
        centroidNorm = Math.sqrt(Math.max(0, centroidNorm * centroidNorm - 2 * within + 1));
      }
      const centroid = centroidNorm > 0 ? clamp01(centroidDots[i]! / (queryNorm * centroidNorm)) : 0;
      scores[i] =
        EVIDENCE_WEIGHTS.neighbours * neighbours + EVIDENCE_WEIGHTS.centroid * Math.min(1, centroid / match);
    }
  }

  // Keywords: tf-idf over intents, each intent one "document" of its examples.
  const left = leaveOut.example;
  const leftIntent = left === undefined ? -1 : intentOf[left]!;
  const sizes = Int32Array.from(model.sizes, (size, i) =>
    i === leaveOut.intent ? 0 : i === leftIntent ? size - 1 : size,
  );
  const present = sizes.reduce((count, size) => count + (size > 0 ? 1 : 0), 0);
  const keyword = new Float64Array(n);
  for (const feature of text.features) {
    const stored = model.keywordCounts.get(feature);
    if (!stored) continue;
    const counts = Int32Array.from(stored, (count, i) =>
      sizes[i] === 0 ? 0 : i === leftIntent && model.exampleFeatures[left!]!.has(feature) ? count - 1 : count,
    );
    const having = counts.reduce((sum, count) => sum + (count > 0 ? 1 : 0), 0);
    if (having === 0) continue;
    const idf = Math.log(present / having);
    if (idf <= 0) continue;
    for (let i = 0; i < n; i++) if (counts[i]! > 0) keyword[i]! += (counts[i]! / sizes[i]!) * idf;
  }
  for (let i = 0; i < n; i++) {
    if (i === leaveOut.intent) continue;
    scores[i]! += EVIDENCE_WEIGHTS.keywords * (1 - Math.exp(-keyword[i]! / KEYWORD_SCALE));
  }
  return { scores, exact, similarities };
}

/**
 * The namespace's own score line, from its examples (null: too few, the
 * default {@link MIN_INTENT_CONFIDENCE} applies). For an even sample of
 * examples:
 *
 * - negatives: each example scored with its whole intent left out, its best
 *   score among the other intents: how high a message the namespace has no
 *   intent for climbs (stand-ins for out-of-domain messages that share the
 *   namespace's vocabulary);
 * - positives: each example scored against its own intent with itself left out.
 *
 * The line is the {@link CALIBRATION_QUANTILE} quantile of the negatives, but
 * no higher than what keeps {@link CALIBRATION_KEEP} of the positives, within
 * {@link THRESHOLD_BOUNDS}.
 */
export function calibrateThreshold(model: IntentModel): number | null {
  const { held, intents, intentOf } = model;
  if (held.count < MIN_CALIBRATION_EXAMPLES || intents.length < 2) return null;
  const step = Math.max(1, held.count / CALIBRATION_SAMPLE);
  const negatives: number[] = [];
  const positives: number[] = [];
  for (let at = 0; at < held.count; at += step) {
    const e = Math.floor(at);
    const own = intentOf[e]!;
    const text: ScoredText = { vector: columnOf(held, e), features: model.exampleFeatures[e]! };
    const without = scoreIntents(model, text, { intent: own }).scores;
    negatives.push(Math.max(...without.filter((_, i) => i !== own)));
    if (model.sizes[own]! > 1) positives.push(scoreIntents(model, text, { example: e }).scores[own]!);
  }
  const line = Math.min(quantile(negatives, CALIBRATION_QUANTILE), quantile(positives, 1 - CALIBRATION_KEEP));
  return Math.min(THRESHOLD_BOUNDS[1], Math.max(THRESHOLD_BOUNDS[0], line));
}

/**
 * Classifies a text (and, for a long message, each of its sentences: an
 * intent's score is its best over them) with the namespace's model. Scores
 * are reported as confidences on the 0.5 line of DECISIONS.md: the model's
 * threshold maps to 0.5 (below it linearly onto [0, 0.5), above onto
 * [0.5, 1]), so `confidence ≥ 0.5` means answered whatever the namespace's
 * calibrated threshold. An exact copy of an example answers its intent with
 * confidence 1. Ties go to the alphabetically first intent.
 */
export function classifyWithModel(
  model: IntentModel,
  whole: ScoredText,
  clauses: readonly ScoredText[] = [],
): Classification & { similarities: Float64Array } {
  const first = scoreIntents(model, whole);
  const scores = Float64Array.from(first.scores);
  for (const clause of clauses) {
    const part = scoreIntents(model, clause).scores;
    for (let i = 0; i < scores.length; i++) scores[i] = Math.max(scores[i]!, part[i]!);
  }
  const ranked: IntentScore[] = model.intents
    .map((intent, i) => ({
      intent,
      confidence: round(i === first.exact ? 1 : onDecisionLine(scores[i]!, model.threshold)),
    }))
    .filter((score) => score.confidence > 0);
  ranked.sort((a, b) => b.confidence - a.confidence || a.intent.localeCompare(b.intent));
  const [best, ...rest] = ranked;
  const similarities = first.similarities;
  if (!best) return { intent: UNKNOWN_INTENT, confidence: 0, alternatives: [], similarities };
  if (best.confidence < MIN_INTENT_CONFIDENCE) {
    return {
      intent: UNKNOWN_INTENT,
      confidence: best.confidence,
      alternatives: ranked.slice(0, MAX_ALTERNATIVES + 1),
      similarities,
    };
  }
  return {
    intent: best.intent,
    confidence: best.confidence,
    alternatives: rest.slice(0, MAX_ALTERNATIVES),
    similarities,
  };
}

/** A score read against the namespace's threshold, on the [0, 1] scale where 0.5 is the line. */
function onDecisionLine(score: number, threshold: number): number {
  const s = clamp01(score);
  if (s < threshold) return (MIN_INTENT_CONFIDENCE * s) / threshold;
  return MIN_INTENT_CONFIDENCE + ((1 - MIN_INTENT_CONFIDENCE) * (s - threshold)) / (1 - threshold);
}

/** Keeps `top` the indices of the `k` highest similarities, best first (ties: the earlier example). */
function insertTop(top: number[], e: number, similarities: Float64Array, k: number): void {
  const s = similarities[e]!;
  if (top.length === k && s <= similarities[top[k - 1]!]!) return;
  let at = top.length;
  while (at > 0 && similarities[top[at - 1]!]! < s) at--;
  top.splice(at, 0, e);
  if (top.length > k) top.pop();
}

/** Example e's vector, read back from the columns. */
function columnOf(held: HeldExamples, e: number): Float32Array {
  const vector = new Float32Array(held.dimensions);
  for (let d = 0; d < held.dimensions; d++) vector[d] = held.columns[d * held.count + e]!;
  return vector;
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return MIN_INTENT_CONFIDENCE;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
