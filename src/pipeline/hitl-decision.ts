/**
 * The delivery decision of the `confidence_check` step, as a pure function
 * over plain data: auto-send, a human (HITL) or persona escalation, with
 * every reason that held. No I/O; randomness comes in as `random`.
 */

import { MIN_ANSWER_SCORE } from '../core/llm/extractive-responder.js';
import { memoiseByText } from '../core/memo.js';
import { UNKNOWN_INTENT } from '../modules/intents/intent-vote.js';
import type { FlaggedSource } from '../modules/rag/flagged-sources.js';

/** Below this confidence (the one 0.7 line of DECISIONS.md) a reply always goes to a human. */
export const CONFIDENCE_THRESHOLD = MIN_ANSWER_SCORE;

export interface DecisionInput {
  /** Best retrieved chunk's blended score in [0, 1]; 0 when nothing was retrieved. */
  confidence: number;
  /** Classified intent; `unknown` allowed. */
  intent: string;
  userText: string;
  replyText: string;
  /** INTENT_TRIGGER_WORDS. */
  triggerWords: readonly string[];
  /** First time this employee hits this intent in this namespace. */
  firstInteraction: boolean;
  /** The intent's trust record; null when there is none (not autonomous). */
  trust: { isAutonomous: boolean; samplingRate: number } | null;
  injection: {
    detected: boolean;
    reason?: string;
    source?: 'user' | 'context';
    /** Retrieved chunks left out as injections (source `context`), reported with the reason. */
    flaggedSources?: FlaggedSource[];
  };
  /** The persona boundary the message matched, computed by the step. */
  boundary: { boundary: string; escalateToRole: string } | null;
  /** Uniform source in [0, 1). */
  random: () => number;
}

export type DecisionReason =
  | { type: 'low_confidence'; confidence: number; threshold: number }
  | { type: 'trigger_word'; word: string; foundIn: 'message' | 'reply' }
  | { type: 'first_interaction' }
  | { type: 'unknown_intent' }
  | { type: 'not_autonomous' }
  | { type: 'sampled'; draw: number; samplingRate: number }
  | { type: 'injection'; reason: string; source: 'user' | 'context'; flaggedSources?: FlaggedSource[] }
  | { type: 'persona_boundary'; boundary: string; escalateToRole: string }
  /** Added after the decision by a namespace plugin (docs/plugins.md). */
  | { type: 'plugin'; pluginId: string; reason: string };

export interface Decision {
  route: 'auto_send' | 'hitl' | 'escalate';
  /** Every reason that held, in the order of the rules; empty exactly when the route is `auto_send`. */
  reasons: DecisionReason[];
  /** The sampling draw; drawn once for every autonomous intent, null otherwise. */
  draw: number | null;
}

/**
 * Decides where a generated reply goes.
 *
 * - A persona boundary escalates (it wins over HITL).
 * - Confidence below {@link CONFIDENCE_THRESHOLD}, a trigger word in the
 *   message or the reply, a first interaction, prompt injection, or the
 *   `unknown` intent send it to a human, even when the intent is autonomous.
 * - Otherwise a non-autonomous intent goes to a human; an autonomous one is
 *   auto-sent when the draw is greater than `samplingRate` and sampled to a
 *   human when it is less than or equal to it.
 *
 * Every rule is evaluated and every reason that held is returned. The draw
 * is made for every autonomous intent, even when another reason already
 * forces a human, so `sampled` means the same thing in every decision and
 * the random source is consumed once per autonomous decision.
 */
export function decideDelivery(input: DecisionInput): Decision {
  const reasons: DecisionReason[] = [];
  const confidence = Number.isFinite(input.confidence) ? input.confidence : 0;
  if (confidence < CONFIDENCE_THRESHOLD) {
    reasons.push({ type: 'low_confidence', confidence, threshold: CONFIDENCE_THRESHOLD });
  }
  for (const word of findTriggerWords(input.userText, input.triggerWords)) {
    reasons.push({ type: 'trigger_word', word, foundIn: 'message' });
  }
  for (const word of findTriggerWords(input.replyText, input.triggerWords)) {
    reasons.push({ type: 'trigger_word', word, foundIn: 'reply' });
  }
  if (input.firstInteraction) reasons.push({ type: 'first_interaction' });
  if (input.injection.detected) {
    reasons.push({
      type: 'injection',
      reason: input.injection.reason ?? 'prompt-injection pattern',
      source: input.injection.source ?? 'user',
      ...(input.injection.flaggedSources?.length ? { flaggedSources: input.injection.flaggedSources } : {}),
    });
  }

  const unknown = input.intent === UNKNOWN_INTENT;
  if (unknown) reasons.push({ type: 'unknown_intent' });
  if (!input.trust?.isAutonomous) reasons.push({ type: 'not_autonomous' });

  let draw: number | null = null;
  if (input.trust?.isAutonomous && !unknown) {
    // A rate that is not a number cannot be trusted to let anything through: sample everything.
    const rate = Number.isFinite(input.trust.samplingRate)
      ? Math.min(1, Math.max(0, input.trust.samplingRate))
      : 1;
    draw = input.random();
    if (draw <= rate) reasons.push({ type: 'sampled', draw, samplingRate: rate });
  }

  if (input.boundary) {
    reasons.push({
      type: 'persona_boundary',
      boundary: input.boundary.boundary,
      escalateToRole: input.boundary.escalateToRole,
    });
    return { route: 'escalate', reasons, draw };
  }
  return { route: reasons.length > 0 ? 'hitl' : 'auto_send', reasons, draw };
}

/**
 * The configured words and phrases that occur in `text`: case-insensitive,
 * whole words only (`суд` does not match `судно`), Unicode letters of any
 * script, a phrase's words separated by any whitespace. Answers the words as
 * configured, each once, in list order.
 */
export function findTriggerWords(text: string, words: readonly string[]): string[] {
  const normalized = text.normalize('NFKC');
  const found: string[] = [];
  for (const word of words) {
    if (!found.includes(word) && phrasePattern(word)?.test(normalized)) found.push(word);
  }
  return found;
}

/** The first boundary phrase that occurs in `text` as whole words, case-insensitive; null when none does. */
export function matchBoundaryPhrase(text: string, boundaries: readonly string[]): string | null {
  const normalized = text.normalize('NFKC');
  return boundaries.find((boundary) => phrasePattern(boundary)?.test(normalized)) ?? null;
}

// A letter, mark, digit or underscore continues a word; so does an apostrophe between letters (м'ясо, don't).
const BEFORE = String.raw`(?<![\p{L}\p{M}\p{N}_])(?<!\p{L}['’ʼ])`;
const AFTER = String.raw`(?![\p{L}\p{M}\p{N}_])(?!['’ʼ]\p{L})`;

/**
 * The whole-word, case-insensitive pattern of a phrase, compiled once: the
 * trigger words and persona boundaries are few and asked of every message.
 */
const phrasePattern = memoiseByText(compilePhrasePattern, 1000);

function compilePhrasePattern(phrase: string): RegExp | null {
  const parts = phrase.normalize('NFKC').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return null;
  const body = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join(String.raw`\s+`);
  return new RegExp(`${BEFORE}${body}${AFTER}`, 'iu');
}
