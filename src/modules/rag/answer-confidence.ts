import { passageEvidence, questionUnits } from '../../core/text/answer-evidence.js';
import type { TermUnit } from '../../core/text/terms.js';

/**
 * The answer confidence: how likely a retrieved passage answers the
 * message, in [0, 1], compared with the 0.7 line (DECISIONS.md: the blended
 * score, calibrated). The retrieval score alone says how near a passage is;
 * a paraphrased question whose answer is in the passage scores 0.2–0.6 on
 * it, no better than a passage on a neighbouring topic. So the confidence
 * reads the answer evidence too (core/text/answer-evidence.ts): the share
 * of the question's content words — by stem, by a spelling-tolerant key, or
 * by workplace concept in any of en/uk/ru — that the passage's best
 * sentence holds (with the neighbour it runs on into). A logistic map of
 * the two, constants fitted on the team's development questions
 * (docs/knowledge.md, "Confidence"):
 *
 *   confidence = σ(BIAS + W_SCORE · score + W_SENTENCE · sentence)
 *
 * A word-for-word repeat keeps its lifted score (≥ 0.9); no passage, 0.
 */

/** Fitted on eval/handbook/questions-dev.jsonl, 2026-11-28 (docs/knowledge.md, "Confidence"). */
export const CALIBRATION = {
  bias: -7.5,
  score: 14,
  sentence: 9,
} as const;

/** The features the confidence reads, each in [0, 1]. */
export interface AnswerFeatures {
  /** The passage's final retrieval score (blended, lifted for a word-for-word repeat). */
  score: number;
  /** Share of the question's content words in the best sentence (or sentence and continuation). */
  sentence: number;
  /** Share of the question's content words in the passage with its title and heading path (reported, not weighed). */
  passage: number;
}

/** A passage as the confidence reads it. */
export interface PassageForConfidence {
  title: string;
  content: string;
  score: number;
  verbatim: boolean;
  headingPath?: readonly string[];
}

/** The features of one passage for a question's content words. */
export function answerFeatures(units: readonly TermUnit[], passage: PassageForConfidence): AnswerFeatures {
  const evidence = passageEvidence(units, passage);
  return {
    score: clamp(passage.score),
    sentence: evidence.bestCoverage,
    passage: evidence.passageCoverage,
  };
}

/** The calibrated confidence of a passage with these features (see the file's comment). */
export function confidenceOf(features: AnswerFeatures, verbatim: boolean): number {
  const c = CALIBRATION;
  const calibrated =
    1 / (1 + Math.exp(-(c.bias + c.score * features.score + c.sentence * features.sentence)));
  return verbatim ? Math.max(calibrated, features.score) : calibrated;
}

/**
 * The answer confidence of each passage for `question`, in the passages'
 * order (nothing is reordered).
 */
export function answerConfidences(question: string, passages: readonly PassageForConfidence[]): number[] {
  const units = questionUnits(question);
  return passages.map((passage) => confidenceOf(answerFeatures(units, passage), passage.verbatim));
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
