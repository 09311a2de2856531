/**
 * Whether a drafted answer is correct for an evaluation case, and the totals
 * of a run: pure functions over plain data (docs/evaluation.md states the rule).
 */

export interface CaseExpectations {
  expectedAnswer: string | null;
  expectedDocumentId: string | null;
  expectedIntent: string | null;
}

export interface CaseObservation {
  draft: string;
  confidence: number;
  /** The draft's sources, best first. */
  sourceDocumentIds: readonly string[];
  predictedIntent: string;
}

export interface CaseVerdict {
  fallback: boolean;
  answerMatches: boolean | null;
  topSourceMatches: boolean | null;
  documentCited: boolean | null;
  intentMatches: boolean | null;
  correct: boolean;
}

/** Lower case, compatibility-normalised, every run of spaces one space. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase().replace(/\s+/gu, ' ').trim();
}

const NUMBER = /\d+(?:[.,]\d+)*/gu;
const WORD = /\p{L}[\p{L}\p{M}'’-]*/gu;
/** Words this long or longer are an expected answer's key words; shorter ones are mostly function words. */
const KEY_WORD_MIN_LETTERS = 4;

/** The numbers of a text, commas read as decimal points (`7,5` and `7.5` are the same number). */
function numbersOf(text: string): Set<string> {
  return new Set([...text.matchAll(NUMBER)].map((m) => m[0].replaceAll(',', '.')));
}

function keyWordsOf(text: string): Set<string> {
  return new Set(
    [...normaliseText(text).matchAll(WORD)].map((m) => m[0]).filter((w) => w.length >= KEY_WORD_MIN_LETTERS),
  );
}

/**
 * The draft holds the expected answer: it contains the phrase (case and
 * spacing ignored), or else every number and every key word (a word of four
 * letters or more) of the phrase appears in the draft. An answer with
 * neither numbers nor key words must appear as a phrase.
 */
export function answerFound(draft: string, expected: string): boolean {
  const text = normaliseText(draft);
  if (text.includes(normaliseText(expected))) return true;
  const numbers = numbersOf(expected);
  const keyWords = keyWordsOf(expected);
  if (numbers.size === 0 && keyWords.size === 0) return false;
  const draftNumbers = numbersOf(draft);
  const draftWords = new Set([...text.matchAll(WORD)].map((m) => m[0]));
  return [...numbers].every((n) => draftNumbers.has(n)) && [...keyWords].every((w) => draftWords.has(w));
}

/**
 * A case's verdict. The draft is a fallback when its confidence is under
 * `line` (the assistant would not send it unreviewed) or it has no source.
 * Correct: not a fallback, and every expectation the case states holds: the
 * answer is found, the top source is the expected document and the draft
 * cites it (it is among the draft's sources), the intent is the expected one.
 */
export function judgeCase(expect: CaseExpectations, seen: CaseObservation, line: number): CaseVerdict {
  const fallback = seen.confidence < line || seen.sourceDocumentIds.length === 0;
  const answerMatches =
    expect.expectedAnswer === null ? null : answerFound(seen.draft, expect.expectedAnswer);
  const topSourceMatches =
    expect.expectedDocumentId === null ? null : seen.sourceDocumentIds[0] === expect.expectedDocumentId;
  const documentCited =
    expect.expectedDocumentId === null ? null : seen.sourceDocumentIds.includes(expect.expectedDocumentId);
  const intentMatches =
    expect.expectedIntent === null
      ? null
      : normaliseText(seen.predictedIntent) === normaliseText(expect.expectedIntent);
  const correct =
    !fallback &&
    answerMatches !== false &&
    topSourceMatches !== false &&
    documentCited !== false &&
    intentMatches !== false;
  return { fallback, answerMatches, topSourceMatches, documentCited, intentMatches, correct };
}

export interface JudgedCase {
  verdict: CaseVerdict;
  /** The case could not be evaluated (its verdict is then all false). */
  failed: boolean;
}

export interface RunTotals {
  cases: number;
  correct: number;
  accuracy: number | null;
  withExpectedDocument: number;
  top1SourceAccuracy: number | null;
  withExpectedIntent: number;
  intentAccuracy: number | null;
  fallbacks: number;
  errors: number;
  [key: string]: number | null;
}

const share = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/** A run's totals over its judged cases. */
export function runTotals(judged: readonly JudgedCase[]): RunTotals {
  const verdicts = judged.map((j) => j.verdict);
  const correct = verdicts.filter((v) => v.correct).length;
  const withDocument = verdicts.filter((v) => v.topSourceMatches !== null);
  const withIntent = verdicts.filter((v) => v.intentMatches !== null);
  return {
    cases: judged.length,
    correct,
    accuracy: share(correct, judged.length),
    withExpectedDocument: withDocument.length,
    top1SourceAccuracy: share(withDocument.filter((v) => v.topSourceMatches).length, withDocument.length),
    withExpectedIntent: withIntent.length,
    intentAccuracy: share(withIntent.filter((v) => v.intentMatches).length, withIntent.length),
    fallbacks: verdicts.filter((v) => v.fallback).length,
    errors: judged.filter((j) => j.failed).length,
  };
}
