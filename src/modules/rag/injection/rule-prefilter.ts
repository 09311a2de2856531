/**
 * A cheap test before each rule's regular expression. Most patterns start
 * at a word boundary with one of a list of words or stems ("ignore",
 * "disregard", "забу…"); a text in which no word starts with any of them
 * cannot match, so the expression is not run. The lists are read from the
 * pattern source itself, so they cannot drift from the patterns; a pattern
 * whose start is not such a list is always run. Pure functions.
 */
import { B, NOT_NEGATED, NOT_STATED } from './rule-syntax.js';

/** Prefixes longer than this are looked up cut to this length. */
const MAX_PREFIX = 12;
const MIN_LITERAL = 2;

/**
 * The words or stems one of which every match of `source` starts with, or
 * undefined when the start of the pattern is not such a list.
 */
export function leadingLiterals(source: string): string[] | undefined {
  const out: string[] = [];
  for (const alternative of splitTopLevel(source)) {
    let rest = alternative;
    for (let stripped = true; stripped; ) {
      stripped = false;
      for (const prefix of [B, NOT_NEGATED, NOT_STATED]) {
        if (rest.startsWith(prefix)) {
          rest = rest.slice(prefix.length);
          stripped = true;
        }
      }
    }
    if (rest === alternative) return undefined;
    const literals = rest.startsWith('(?:') ? groupLiterals(rest) : literalAt(rest, 0);
    if (!literals) return undefined;
    out.push(...literals);
  }
  return out.map((literal) => literal.slice(0, MAX_PREFIX));
}

/** Literals that start the alternatives of the group at the start of `text` (which must not be optional). */
function groupLiterals(text: string): string[] | undefined {
  const end = closingParen(text, 0);
  if (end < 0 || isQuantifier(text[end + 1])) return undefined;
  const out: string[] = [];
  for (const alternative of splitTopLevel(text.slice(3, end))) {
    const literals = alternative.startsWith('(?:') ? groupLiterals(alternative) : literalAt(alternative, 0);
    if (!literals) return undefined;
    out.push(...literals);
  }
  return out;
}

/** The plain letters at `at`, without a last letter that a quantifier makes optional. */
function literalAt(text: string, at: number): string[] | undefined {
  const match = /^[\p{L}\p{N}'-]+/u.exec(text.slice(at));
  if (!match || !/^[\p{L}\p{N}]/u.test(match[0])) return undefined;
  let literal = match[0];
  if (isQuantifier(text[at + literal.length])) literal = literal.slice(0, -1);
  return literal.length >= MIN_LITERAL ? [literal] : undefined;
}

function isQuantifier(c: string | undefined): boolean {
  return c === '?' || c === '*' || c === '{';
}

/**
 * Walks a pattern source from `from`, skipping escapes and character
 * classes, and calls `visit` with each other character's index and its
 * group depth after it; stops early when `visit` answers true.
 */
function walkOutsideClasses(text: string, from: number, visit: (i: number, depth: number) => boolean): void {
  let depth = 0;
  let inClass = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    if (visit(i, depth)) return;
  }
}

/** The index of the parenthesis closing the group opened at `open`; -1 when none does. */
function closingParen(text: string, open: number): number {
  let found = -1;
  walkOutsideClasses(text, open, (i, depth) => {
    if (text[i] === ')' && depth === 0) found = i;
    return found >= 0;
  });
  return found;
}

/** `a|b|c` split at the bars outside groups and classes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  walkOutsideClasses(text, 0, (i, depth) => {
    if (text[i] === '|' && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
    return false;
  });
  parts.push(text.slice(from));
  return parts;
}

/** Every beginning of a word in `folded`, 2 to MAX_PREFIX characters long (what follows the word start, as typed). */
export function wordStartPrefixes(folded: string): Set<string> {
  const out = new Set<string>();
  for (const match of folded.matchAll(/(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu)) {
    const at = match.index ?? 0;
    const piece = folded.slice(at, at + MAX_PREFIX);
    for (let n = MIN_LITERAL; n <= piece.length; n++) out.add(piece.slice(0, n));
  }
  return out;
}
