/**
 * Prompt-injection detection in layers (docs/injection.md):
 *
 * 1. normalisation: folded text (normalise.ts), plus extra views where they
 *    apply: misspelt key words read as the key words (typos.ts), Latin-letter
 *    Ukrainian and Russian read back into Cyrillic (transliterate.ts),
 *    encoded runs decoded (decode.ts), HTML split into visible and hidden
 *    text (html-visible.ts);
 * 2. rules per family (rules.ts, rules-more.ts), counted for less when the
 *    text around a match, or the whole page, describes attacks instead of
 *    making one;
 * 3. the trained classifier (model.ts) on each segment.
 *
 * Scores combine as a noisy OR, `1 − (1 − rule)(1 − model)`, per match; the
 * verdict takes the highest score over all views and segments and flags at
 * INJECTION_THRESHOLD. Pure and synchronous, so every caller can run it
 * inline.
 */
import { decodeRuns } from './decode.js';
import { looksLikeHtml, splitHtml } from './html-visible.js';
import { deLeet, rot13View } from './leet.js';
import { modelScore } from './model.js';
import { foldText, invisibleCharacters, segments } from './normalise.js';
import { describesAttacks, matchRules, pageDescribesAttacks } from './rules.js';
import { inUserTurn, isTranscript, structuralHits } from './structure.js';
import { looksTransliterated, transliterate } from './transliterate.js';
import { correctTypos } from './typos.js';

/** Scores at or above this flag a text. Chosen on a development slice of the training split. */
export const INJECTION_THRESHOLD = 0.5;

export interface DetectOptions {
  /** A user message or a document (chunk); documents are scored segment by segment. */
  kind?: 'message' | 'document';
  /** The raw HTML the text was extracted from, when there is one: hidden parts are checked separately. */
  html?: string;
}

export interface InjectionVerdict {
  detected: boolean;
  /** 0..1; flagged at INJECTION_THRESHOLD. */
  score: number;
  /** The family of the strongest signal, e.g. `override-instructions`, `hidden-text`, `classifier`. */
  family?: string;
  /** The matched text (folded: lower case), at most 120 characters. */
  span?: string;
  /** Present when detected: `<family>: "<span>"`, for reviewers and logs. */
  reason?: string;
}

interface Candidate {
  score: number;
  family: string;
  span: string;
  note?: string;
}

const MAX_SCAN_CHARS = 100_000;
const MAX_SPAN = 120;
/** How much a rule match counts when the text around it describes attacks. */
const DESCRIBED_FACTOR = 0.4;
/** Hidden text that reads as an instruction is itself a strong signal. */
const HIDDEN_FLOOR = 0.9;
const ENCODED_FLOOR = 0.9;
/** Hidden or encoded text counts as instruction-like from this score on (then floored as above). */
const INSTRUCTION_LIKE = 0.4;
/**
 * The model's probability at which it flags a text on its own, without a
 * rule. Well above 0.5: the model is trained on a small corpus, and short
 * ordinary texts outside it ("System: Linux, 8 GB RAM.") score up to 0.77.
 * On the development slice the model alone had no false positives from 0.7.
 */
const MODEL_ALONE = 0.8;
/**
 * The same bar for a segment of a document. Higher: the training corpus has
 * few carrier documents, so an ordinary page unlike them is more often out of
 * the model's experience than a message is.
 */
const MODEL_ALONE_DOCUMENT = 0.9;
/**
 * Segments shorter than this many words (headings, menu items, "Back to top")
 * are never flagged by the model alone, and never count as instruction-like
 * hidden text on their own: their scores stop at SHORT_CAP. Rules still apply.
 */
const MIN_WORDS_ALONE = 4;
const SHORT_CAP = 0.3;

/** Checks one text (a user message, a document or a retrieved chunk) for prompt injection. */
export function detectInjection(text: string, options: DetectOptions = {}): InjectionVerdict {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  contextScores.clear();
  const document = options.kind === 'document';
  const bar = document ? MODEL_ALONE_DOCUMENT : MODEL_ALONE;
  const candidates: Candidate[] = [];

  const invisible = invisibleCharacters(input);
  if (invisible) candidates.push({ score: 0.9, family: 'hidden-characters', span: invisible });

  const html = options.html ?? (looksLikeHtml(input) ? input : undefined);
  const hiddenPieces = html ? splitHtml(html.slice(0, MAX_SCAN_CHARS)).hidden : [];
  for (const match of input.matchAll(/^\s*\[\/\/\]:\s*#\s*\(([^)\n]{4,})\)/gmu)) {
    hiddenPieces.push({ text: match[1] ?? '', how: 'Markdown comment' });
  }
  for (const piece of hiddenPieces) {
    // Hidden text is read as a document: nobody types it to the assistant in a conversation.
    const best = strongest(scanView(foldText(piece.text), bar, true, false, false, false));
    if (best && best.score >= INSTRUCTION_LIKE) {
      candidates.push({
        ...best,
        score: Math.max(best.score, HIDDEN_FLOOR),
        family: 'hidden-text',
        note: piece.how,
      });
    }
  }

  const folded = foldText(input);
  const page = pageDescribesAttacks(folded);
  candidates.push(...scanView(folded, bar, document, true, false, page));
  // Near-miss spellings of key words ("ignroe", "інструцкії") read as the key words: rules only, with the model's view of the sentence.
  const corrected = correctTypos(folded);
  if (corrected !== folded) {
    for (const hit of ruleCandidates(corrected, document, true, false, page))
      candidates.push({ ...hit, note: 'misspelt key words' });
  }
  if (looksTransliterated(folded)) {
    for (const language of ['uk', 'ru'] as const) {
      const view = transliterate(folded, language);
      const note = `read as ${language === 'uk' ? 'Ukrainian' : 'Russian'}`;
      for (const hit of scanView(view, bar, document, true, true, page)) candidates.push({ ...hit, note });
      const fixed = correctTypos(view);
      if (fixed !== view)
        for (const hit of ruleCandidates(fixed, document, true, true, page))
          candidates.push({ ...hit, note });
    }
  }
  // Digits for letters ("1gn0r3", "п0п3р3дн1"): rules and model on the letters they stand for.
  const unleet = deLeet(folded);
  if (unleet !== folded) {
    for (const hit of ruleCandidates(unleet, document, true, false, page))
      candidates.push({ ...hit, note: 'digits read as letters' });
  }

  const rot13 = rot13View(folded);
  const decodedRuns = rot13 ? [...decodeRuns(input), { encoding: 'rot13', text: rot13 }] : decodeRuns(input);
  for (const decoded of decodedRuns) {
    const best = strongest(scanView(foldText(decoded.text), bar, true, true));
    if (best && best.score >= INSTRUCTION_LIKE) {
      const score = best.family === 'classifier' ? best.score : Math.max(best.score, ENCODED_FLOOR);
      candidates.push({ ...best, score, family: 'encoded', note: `${decoded.encoding}, ${best.family}` });
    }
  }

  const best = strongest(candidates);
  if (!best) return { detected: false, score: 0 };
  const score = round(best.score);
  if (score < INJECTION_THRESHOLD) return { detected: false, score };
  const span = quote(best.span);
  return {
    detected: true,
    score,
    family: best.family,
    span,
    reason: `${best.family}: "${span}"${best.note ? ` (${best.note})` : ''}`,
  };
}

/**
 * Rule matches (each combined with the model's score of its sentence) and
 * model-only scores of each segment. `rulesOnly` skips the model, for views
 * the model was not trained on (transliterated back into Cyrillic).
 */
function scanView(
  folded: string,
  bar: number,
  document: boolean,
  framed: boolean,
  rulesOnly = false,
  page = false,
): Candidate[] {
  const out = ruleCandidates(folded, document, framed, rulesOnly, page);
  if (rulesOnly) return out;
  for (const segment of segments(folded)) {
    let score = modelAlone(modelScore(segment), bar);
    // A heading or a menu item gives the model too little to go on: alone it never flags one.
    if (wordCount(segment) < MIN_WORDS_ALONE) score = Math.min(score, SHORT_CAP);
    if (framed && (page || describesAttacks(segment))) score *= DESCRIBED_FACTOR;
    out.push({ score, family: 'classifier', span: segment });
  }
  return out;
}

/**
 * Rule and structural matches in one view (structure.ts weighs a document's
 * and a message's differently), each combined with the model's score of the
 * sentence around it (unless `rulesOnly`).
 */
function ruleCandidates(
  folded: string,
  document: boolean,
  framed: boolean,
  rulesOnly: boolean,
  page: boolean,
): Candidate[] {
  const out: Candidate[] = [];
  const transcript = document && isTranscript(folded);
  for (const hit of [...matchRules(folded), ...structuralHits(folded, document)]) {
    const context = around(folded, hit.start, hit.end);
    const model = rulesOnly ? 0 : contextScore(context);
    let score = 1 - (1 - hit.weight) * (1 - model);
    if (framed && (page || describesAttacks(context))) score *= DESCRIBED_FACTOR;
    // A user's request quoted in a transcript document was made to some assistant then, not to this one now.
    if (document && transcript && inUserTurn(folded, hit.start)) score *= DESCRIBED_FACTOR;
    out.push({ score, family: hit.family, span: folded.slice(hit.start, hit.end) });
  }
  return out;
}

/**
 * The model's score of a rule match's context, remembered for the current
 * call only: several rules and structural signals often match in one
 * sentence, and each view repeats the sentence. Detection is synchronous,
 * so one call's scores never mix with another's.
 */
const contextScores = new Map<string, number>();
function contextScore(context: string): number {
  let score = contextScores.get(context);
  if (score === undefined) {
    score = modelScore(context);
    contextScores.set(context, score);
  }
  return score;
}

function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
}

/** Maps the model's probability so that `bar` lands on INJECTION_THRESHOLD (piecewise linear, monotonic). */
function modelAlone(p: number, bar: number): number {
  return p < bar
    ? (p / bar) * INJECTION_THRESHOLD
    : INJECTION_THRESHOLD + ((p - bar) / (1 - bar)) * (1 - INJECTION_THRESHOLD);
}

/** The sentence holding a match and the one before it, within its paragraph. */
function around(text: string, start: number, end: number): string {
  const paragraphStart = text.lastIndexOf('\n', start) + 1;
  const nextBreak = text.indexOf('\n', end);
  const paragraphEnd = nextBreak < 0 ? text.length : nextBreak;
  const before = text.slice(Math.max(paragraphStart, start - 300), start);
  const sentenceStarts = [...before.matchAll(/[.!?]\s+/g)].map((m) => (m.index ?? 0) + m[0].length);
  const from = sentenceStarts.length >= 2 ? (sentenceStarts[sentenceStarts.length - 2] ?? 0) : 0;
  const after = text.slice(end, Math.min(paragraphEnd, end + 200));
  const stop = after.search(/[.!?](?:\s|$)/);
  return before.slice(from) + text.slice(start, end) + (stop < 0 ? after : after.slice(0, stop + 1));
}

function strongest(candidates: Candidate[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const candidate of candidates) {
    // On a tie a named family beats the classifier: its span says more.
    if (
      !best ||
      candidate.score > best.score ||
      (candidate.score === best.score && best.family === 'classifier')
    ) {
      best = candidate;
    }
  }
  return best;
}

function quote(span: string): string {
  const trimmed = span.replace(/\s+/g, ' ').trim();
  return trimmed.length <= MAX_SPAN ? trimmed : `${trimmed.slice(0, MAX_SPAN - 1)}…`;
}

function round(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}
