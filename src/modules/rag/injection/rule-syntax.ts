/** Building blocks of the rule patterns (rules.ts, rules-more.ts). */

/** Letter boundaries that work for Cyrillic (JavaScript's `\b` is ASCII-only). */
export const B = String.raw`(?<![\p{L}\p{N}])`;
export const E = String.raw`(?![\p{L}\p{N}])`;
/** Not right after a negation: "do not ignore the rules above" is advice, not an attack. */
export const NOT_NEGATED = String.raw`(?<!(?:not|don't|never|не|ні|нельзя|не можна|не можно|никогда|ніколи)\s+(?:\p{L}+\s+)?)`;
/** A few words in between, never across punctuation. */
export const gap = (n: number) => String.raw`(?:[\p{L}\p{N}'-]+\s+){0,${n}}`;
/** A word stem: the stem and any ending. */
export const s = (stem: string) => `${stem}\\p{L}*`;
/**
 * Not right after a subject: "these rules override any previous instructions"
 * states what a policy does; the attack is the imperative ("override …").
 */
export const NOT_STATED = String.raw`(?<!(?:rules|polic(?:y|ies)|guidelines|procedures|documents?|versions?|these|they|which|who|that|it|this|we|managers|employees|staff)\s+)`;
