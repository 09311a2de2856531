import { termUnits } from '../../core/text/terms.js';

/**
 * The keyword features of a text for the intent model: each content word's
 * stems (`s:` + stem; function words dropped) and the workplace concepts it
 * belongs to (`c:` + concept number, core/text/workplace-terms.ts), so
 * "vacation", "annual leave", "відпустка" and "отпуск" share a feature even
 * when no stored example uses the message's own word.
 */
export function keywordFeatures(text: string): Set<string> {
  const features = new Set<string>();
  for (const unit of termUnits(text)) {
    for (const stem of unit.stems) features.add(`s:${stem}`);
    for (const concept of unit.concepts) features.add(`c:${concept}`);
  }
  return features;
}

/** A long message is read in at most this many sentences (the rest is context). */
export const MAX_CLAUSES = 6;

const SENTENCE_END = /(?<=[.!?;…])\s+|\n+/u;
const HAS_WORD = /[\p{L}\p{N}]{2,}/u;

/**
 * The sentences of a message with at least two (`HAS_WORD`), when it has
 * more than one: a long question ("We have a visit on Thursday. Our room is
 * too small. How do I book a bigger one?") is scored sentence by sentence
 * as well as whole, so the sentence that asks is not drowned by the context
 * around it. A one-sentence message answers [].
 */
export function clausesOf(text: string): string[] {
  const parts = text
    .split(SENTENCE_END)
    .map((part) => part.trim())
    .filter((part) => HAS_WORD.test(part));
  return parts.length > 1 ? parts.slice(0, MAX_CLAUSES) : [];
}
