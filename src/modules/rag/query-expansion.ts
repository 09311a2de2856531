import { conceptPhrases, termUnits } from '../../core/text/terms.js';
import { MAX_QUERY_TERMS, queryKeywordTerms } from './text-analysis.js';

/**
 * Query-side paraphrase help for the keyword leg, offline: the workplace
 * concepts a message names (core/text/workplace-terms.ts: "vacation",
 * "annual leave", "відпустка", "отпуск" are one concept) bring the keyword
 * terms of the concept's other names, in all three languages, so a passage
 * written with other words or in another of en/uk/ru is found too.
 */

/** Expansion terms added at most, after the message's own (the keyword leg takes {@link MAX_QUERY_TERMS}). */
export const MAX_EXPANSION_TERMS = 16;

/** Terms added per concept at most: a concept with many names must not outweigh the message. */
export const MAX_TERMS_PER_CONCEPT = 8;

/** The message's own keyword terms and those its workplace concepts add. */
export interface ExpandedQuery {
  /** `queryKeywordTerms(text)`: the message's own terms. */
  own: string[];
  /** Terms of the other names of the concepts the message names, not among `own`. */
  added: string[];
  /** Both, own first, at most {@link MAX_QUERY_TERMS}. */
  terms: string[];
  /** The other names of the message's concepts, as written in the vocabulary. */
  names: string[];
}

/**
 * Expands a message's keyword terms with its concepts' other names. Names
 * of one word come first (a word of a phrase alone, like "time" of "paid
 * time off", says less than a name), each concept adding at most
 * {@link MAX_TERMS_PER_CONCEPT} terms.
 */
export function expandQuery(text: string): ExpandedQuery {
  const own = queryKeywordTerms(text);
  const known = new Set(own);
  const added: string[] = [];
  const names: string[] = [];
  const concepts = new Set(termUnits(text).flatMap((unit) => [...unit.concepts]));
  for (const concept of concepts) {
    const conceptNames = conceptPhrases(concept).sort((a, b) => wordCount(a) - wordCount(b));
    let taken = 0;
    for (const name of conceptNames) {
      names.push(name);
      for (const term of queryKeywordTerms(name)) {
        if (known.has(term) || taken >= MAX_TERMS_PER_CONCEPT || added.length >= MAX_EXPANSION_TERMS)
          continue;
        known.add(term);
        added.push(term);
        taken++;
      }
    }
  }
  return { own, added, names, terms: [...own, ...added].slice(0, Math.max(MAX_QUERY_TERMS, own.length)) };
}

function wordCount(phrase: string): number {
  return phrase.trim().split(/\s+/u).length;
}
