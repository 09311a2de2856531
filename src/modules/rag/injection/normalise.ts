/**
 * Normalisation, the first layer of injection detection: every later layer
 * reads text the way a model would, not the way it was typed to slip past a
 * filter. Pure functions; see docs/injection.md.
 */

/** Zero-width characters and the soft hyphen: invisible to a reader, read by a model. */
const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u00AD]/gu;
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/gu;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/gu;
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]/gu;
/** A zero-width joiner between pictographs builds an emoji; that is not hiding anything. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;

/** Lower-case letters that look alike in Latin and Cyrillic (and a few Greek ones). */
const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  х: 'x',
  у: 'y',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ӏ: 'l',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
};
const LATIN_TO_CYRILLIC: Record<string, string> = {
  a: 'а',
  e: 'е',
  o: 'о',
  p: 'р',
  c: 'с',
  x: 'х',
  y: 'у',
  i: 'і',
  j: 'ј',
  s: 'ѕ',
  h: 'һ',
};
const GREEK_TO_LATIN: Record<string, string> = {
  ο: 'o',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
};
/** Both tables that read a letter as Latin, merged once. */
const TO_LATIN: Record<string, string> = { ...CYRILLIC_TO_LATIN, ...GREEK_TO_LATIN };
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/** What a reader cannot see but a model reads; null when nothing suspicious. */
export function invisibleCharacters(text: string): string | null {
  if (text.match(TAG_CHARACTERS)) return 'invisible Unicode tag characters';
  if (text.match(BIDI)) return 'bidirectional override characters';
  const zeroWidth = text.replace(EMOJI_JOINER, '').match(ZERO_WIDTH)?.length ?? 0;
  // A zero-width character between every letter is obfuscation the letters read through; a few scattered ones are a signal.
  if (zeroWidth >= 3) return `${zeroWidth} zero-width characters`;
  return null;
}

/**
 * The base view: NFKC (fullwidth and compatibility forms), invisible and
 * direction characters removed, Unicode tag characters read as the ASCII they
 * hide, lower case, `ё` as `е`, look-alike letters folded into the script of
 * the word, letter-spaced runs collapsed, apostrophes and whitespace unified.
 */
export function foldText(text: string): string {
  const base = text
    .replace(TAG_CHARACTERS, (c) => String.fromCharCode((c.codePointAt(0) ?? 0xe0020) - 0xe0000))
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(BIDI, '')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[’ʼ`´‘]/g, "'")
    .replace(/[“”„«»]/g, '"')
    .replace(/[‐‑‒–—―]/g, '-');
  // Letter-spaced runs are read before whitespace is unified: two spaces mark a word break there.
  return foldConfusables(collapseSpacedLetters(base).replace(/[ \t\f\v\u00A0\u2000-\u200A\u3000]+/gu, ' '));
}

/**
 * Letters that look alike are read in the script of their word: `іgnоrе`
 * (Cyrillic і, о, е) becomes `ignore`, `інструкціi` (Latin i) `інструкції`.
 * A word made only of look-alikes follows the script most of the text uses.
 */
export function foldConfusables(text: string): string {
  if (!LATIN.test(text) || !CYRILLIC.test(text)) {
    return GREEK_RE.test(text) ? text.replace(GREEK_LETTERS, (c) => GREEK_TO_LATIN[c] ?? c) : text;
  }
  const majority = majorityScript(text);
  return text.replace(/[\p{L}\p{M}]+/gu, (word) => {
    let latin = 0;
    let cyrillic = 0;
    // Whether the word holds a letter that each direction would change.
    let toLatin = false;
    let toCyrillic = false;
    for (const c of word) {
      if (c in TO_LATIN) toLatin = true;
      if (c in LATIN_TO_CYRILLIC) toCyrillic = true;
      if (c in CYRILLIC_TO_LATIN || c in LATIN_TO_CYRILLIC) continue;
      if (LATIN.test(c)) latin++;
      else if (CYRILLIC.test(c)) cyrillic++;
    }
    const target = latin > cyrillic ? 'latin' : cyrillic > latin ? 'cyrillic' : majority;
    // Most words are already in their script: nothing to rebuild.
    if (target === 'latin' ? !toLatin : !toCyrillic) return word;
    const table = target === 'latin' ? TO_LATIN : LATIN_TO_CYRILLIC;
    let out = '';
    for (const c of word) out += table[c] ?? c;
    return out;
  });
}

const GREEK_LETTERS = /[οαειικνρτυχ]/gu;
const GREEK_RE = /\p{Script=Greek}/u;

function majorityScript(text: string): 'latin' | 'cyrillic' {
  let latin = 0;
  let cyrillic = 0;
  for (const c of text) {
    if (c in CYRILLIC_TO_LATIN || c in LATIN_TO_CYRILLIC) continue;
    if (LATIN.test(c)) latin++;
    else if (CYRILLIC.test(c)) cyrillic++;
  }
  return latin >= cyrillic ? 'latin' : 'cyrillic';
}

/** A run of at least four single letters with separators: `i g n o r e`, `s.k.i.p`, `p-a-y`. */
const SPACED_RUN = /(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*·•|]{1,4}\p{L}(?![\p{L}\p{N}])){3,}/gu;

/**
 * Collapses letter-spaced runs into words. Inside a run the most frequent
 * separator joins letters and any other separator breaks words, so
 * `i g n o r e  a l l` reads `ignore all` and `s.k.i.p t.h.e` reads `skip the`.
 */
export function collapseSpacedLetters(text: string): string {
  return text.replace(SPACED_RUN, (run) => {
    const separators = run.match(/[ .\-_*·•|]{1,4}/gu) ?? [];
    const counts = new Map<string, number>();
    for (const s of separators) counts.set(s, (counts.get(s) ?? 0) + 1);
    const joiner = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ' ';
    const letters = run.split(/([ .\-_*·•|]{1,4})/u);
    let out = '';
    for (const part of letters) {
      if (!part) continue;
      if (/^[ .\-_*·•|]+$/u.test(part)) out += part === joiner ? '' : ' ';
      else out += part;
    }
    return out;
  });
}

/** Splits text into sentence-sized segments (at most `max` characters each) for per-segment scoring. */
export function segments(text: string, max = 400): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/u)) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    if (trimmed.length <= max) {
      out.push(trimmed);
      continue;
    }
    const sentences = trimmed.split(/(?<=[.!?;])\s+/u);
    let current = '';
    for (const sentence of sentences) {
      if (current && current.length + sentence.length + 1 > max) {
        out.push(current);
        current = '';
      }
      current = current ? `${current} ${sentence}` : sentence.slice(0, max * 2);
    }
    if (current) out.push(current);
  }
  return out;
}
