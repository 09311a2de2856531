import { bagHas, type TermBag, type TermUnit, termBag, termUnits } from './terms.js';

/**
 * How well a passage's text holds what a question asks for, sentence by
 * sentence: the share of the question's content words (by stem or by
 * workplace concept, any of en/uk/ru) a sentence holds, the numbers they
 * share. One reading of the evidence for the offline responder (which
 * sentence to quote) and the answer confidence (whether to answer).
 */

/** The question's distinct content words (by their first stem). */
export function questionUnits(question: string): TermUnit[] {
  const seen = new Set<string>();
  return termUnits(question).filter((unit) => {
    const key = unit.stems[0] ?? unit.word;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Sentences end at `.`, `!`, `?`, `…` followed by space, or at a blank line or line break. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => s.replace(/\s+/gu, ' ').trim())
    .filter((s) => s.length > 0);
}

/** A sentence's evidence for the question. */
export interface SentenceEvidence {
  /** The sentence as quoted: heading text glued to its start removed. */
  text: string;
  position: number;
  /** Share of the question's content words the sentence holds (weighted), in [0, 1]. */
  coverage: number;
  /** Question words the sentence holds (indexes into the question's units). */
  matched: Set<number>;
  /** The sentence holds a number written with digits (an amount, a date, a count). */
  hasNumber: boolean;
  /** A heading line or a bare heading, not a sentence that answers. */
  heading: boolean;
}

/** A passage's evidence: per sentence, the best sentence (with a neighbour that continues it) and the whole. */
export interface PassageEvidence {
  sentences: SentenceEvidence[];
  /** Best coverage of one sentence, or of a sentence with the neighbour it runs on into. */
  bestCoverage: number;
  /** Coverage of the whole passage with its title and heading path. */
  passageCoverage: number;
  /** Share of the question's digit numbers the passage holds (1 when the question has none). */
  numbers: number;
  /** Coverage of the heading path (and title) alone: the section is about what is asked. */
  headingCoverage: number;
}

/**
 * The evidence of one passage for a question's units. `headingPath` (the
 * chunk's section headings) and `title` count for the passage as a whole
 * and for telling heading text apart from sentences; a heading glued to the
 * first sentence (PDF and OCR text) is cut off the quoted text.
 */
export function passageEvidence(
  units: readonly TermUnit[],
  passage: { content: string; title?: string; headingPath?: readonly string[] },
  weights: readonly number[] = units.map(() => 1),
): PassageEvidence {
  const headings = [...(passage.headingPath ?? [])].filter((h) => h.trim().length > 0);
  const totalWeight = units.reduce((sum, _u, i) => sum + (weights[i] ?? 1), 0);
  const share = (matched: ReadonlySet<number>) =>
    totalWeight <= 0 ? 0 : [...matched].reduce((sum, i) => sum + (weights[i] ?? 1), 0) / totalWeight;
  const coverageOf = (bag: TermBag) => {
    const matched = new Set<number>();
    units.forEach((unit, i) => {
      if (bagHas(bag, unit)) matched.add(i);
    });
    return matched;
  };
  const sentences = splitSentences(passage.content).map((raw, position): SentenceEvidence => {
    const text = stripHeading(raw, headings);
    const heading = text.length === 0 || isHeadingLine(raw, headings);
    const sentenceUnits = termUnits(text);
    const matched = heading ? new Set<number>() : coverageOf(termBag(sentenceUnits));
    return {
      text,
      position,
      coverage: share(matched),
      matched,
      hasNumber: sentenceUnits.some((u) => u.number),
      heading,
    };
  });
  let bestCoverage = 0;
  sentences.forEach((sentence, i) => {
    bestCoverage = Math.max(bestCoverage, sentence.coverage);
    const next = sentences[i + 1];
    if (next && !next.heading && !sentence.heading && continues(sentence.text, next.text)) {
      const both = new Set([...sentence.matched, ...next.matched]);
      bestCoverage = Math.max(bestCoverage, share(both));
    }
  });
  const headingText = [passage.title ?? '', ...headings].join('\n');
  const whole = coverageOf(termBag(`${headingText}\n${passage.content}`));
  const headingMatched = coverageOf(termBag(headingText));
  const numbers = units.filter((u) => u.number);
  const passageWords = new Set(termUnits(passage.content).map((u) => u.word));
  return {
    sentences,
    bestCoverage,
    passageCoverage: share(whole),
    numbers:
      numbers.length === 0 ? 1 : numbers.filter((u) => passageWords.has(u.word)).length / numbers.length,
    headingCoverage: share(headingMatched),
  };
}

/** Markdown heading marks and list bullets that may open a line. */
const LINE_MARKS = /^(?:#{1,6}\s+|[-*•]\s+)/u;

/**
 * A sentence with the heading text it starts with removed: PDF and OCR text
 * run a section's heading into its first sentence ("Annual leave Employees
 * get…"). Longest heading first; only when a sentence remains.
 */
export function stripHeading(sentence: string, headings: readonly string[]): string {
  let text = sentence.replace(LINE_MARKS, '');
  const byLength = [...headings, headings.join(' ')].filter(Boolean).sort((a, b) => b.length - a.length);
  for (const heading of byLength) {
    const h = heading.trim();
    if (h.length === 0 || text.length <= h.length) continue;
    if (
      text.slice(0, h.length).toLowerCase() === h.toLowerCase() &&
      /^[\s:.–—-]/u.test(text.slice(h.length))
    ) {
      text = text.slice(h.length).replace(/^[\s:.–—-]+/u, '');
      break;
    }
  }
  return text.trim();
}

/** A line that is a heading: a Markdown `#` line, or the text of one of the passage's headings. */
function isHeadingLine(raw: string, headings: readonly string[]): boolean {
  if (/^#{1,6}\s/u.test(raw)) return true;
  const plain = raw
    .replace(/[\s:.]+$/u, '')
    .trim()
    .toLowerCase();
  return headings.some((h) => h.trim().toLowerCase() === plain);
}

/** Words that open a sentence leaning on the one before ("This applies…", "Це…", "Это…"). */
const CONTINUATION =
  /^(?:this|these|that|those|it|they|such|then|also|however|otherwise|in that case|це|цей|ця|ці|він|вона|вони|також|однак|інакше|тоді|это|этот|эта|эти|он|она|они|также|однако|иначе|тогда)(?=[\s,.:;!?]|$)/iu;

/** Whether `next` runs on from `sentence`: it ends with a colon, or `next` leans on it. */
export function continues(sentence: string, next: string): boolean {
  return /:$/u.test(sentence) || CONTINUATION.test(next) || /^\p{Ll}/u.test(next);
}
