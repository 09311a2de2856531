/**
 * Two more readings of folded text for the detector: digits written for
 * letters ("1gn0r3 4ll", "п0п3р3дн1 1нструкц1ї") read as the letters, and
 * rot13 read back when the result is more like English than the text was.
 * Pure functions.
 */

const LATIN_DIGITS: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
};
/** Cyrillic readings; `1` is і in Ukrainian text and и in Russian (see deLeet). */
const CYRILLIC_DIGITS: Record<string, string> = { '0': 'о', '3': 'е', '4': 'а', '6': 'б', '@': 'а' };
/** A word that mixes letters with digits or `@`/`$` standing for letters. */
const MIXED_WORD = /[\p{L}\p{N}@$]*(?:\p{L}[\p{N}@$]|[\p{N}@$]\p{L})[\p{L}\p{N}@$]*/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
/** Two mixed words at least: one ("mp3", "4g", "b2b") is ordinary. */
const MIN_MIXED_WORDS = 2;

/**
 * The text with digits inside letter words read as letters, or the text
 * itself when fewer than two words mix them. Words with letters of neither
 * script, and numbers, are left alone.
 */
export function deLeet(folded: string): string {
  const mixed = folded.match(MIXED_WORD);
  if (!mixed || mixed.length < MIN_MIXED_WORDS) return folded;
  const ukrainian = /[іїєґ]/u.test(folded);
  return folded.replace(MIXED_WORD, (word) => {
    if (CYRILLIC.test(word)) {
      return word.replace(/[\p{N}@]/gu, (c) =>
        c === '1' ? (ukrainian ? 'і' : 'и') : (CYRILLIC_DIGITS[c] ?? c),
      );
    }
    if (LATIN.test(word)) return word.replace(/[\p{N}@$]/gu, (c) => LATIN_DIGITS[c] ?? c);
    return word;
  });
}

/** Short English words that every English sentence is full of. */
const COMMON_ENGLISH =
  /\b(?:the|and|to|of|you|your|all|is|are|be|in|for|with|that|this|it|on|not|or|as|now|must|any|what|from)\b/g;
const ROT13_MIN_COMMON = 3;

/**
 * The rot13 reading of a Latin text when it holds clearly more common
 * English words than the text itself (`gur nffvfgnag zhfg` → `the assistant
 * must`), else null.
 */
export function rot13View(folded: string): string | null {
  if (!/[a-z]{4}/.test(folded)) return null;
  const turned = folded.replace(/[a-z]/g, (c) =>
    String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97),
  );
  const before = folded.match(COMMON_ENGLISH)?.length ?? 0;
  const after = turned.match(COMMON_ENGLISH)?.length ?? 0;
  return after >= ROT13_MIN_COMMON && after > 2 * before ? turned : null;
}
