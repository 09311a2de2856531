/**
 * Latin and Cyrillic spellings of the same Ukrainian or Russian word brought
 * to one "sound skeleton", so `vidpustka` and `відпустка`,
 * `otpusk` and `отпуск` can be compared letter by letter.
 *
 * The skeleton is lossy on purpose. It is a matching key, never shown:
 *
 * - Cyrillic is romanised letter by letter (one scheme for both languages:
 *   `ж` zh, `х` kh, `ц` ts, `ч` ch, `ш` sh, `щ` shch, `я` ya, `ю` yu,
 *   `є` ye, `ї` yi; the soft and hard signs vanish);
 * - then the Latin text is folded so the spellings people actually type
 *   meet: `shch`/`sch`/`sh` and `zh`, `ch` become one letter each, `ts`/`tz`
 *   become `c`, `kh`, `h` and `g` become `g` (Ukrainian `г` is written both
 *   ways), `c` and `q` become `k`, `w` becomes `v`, `y` and `j` become `i`,
 *   and a letter repeated (`ss`, `ii`) counts once.
 *
 * Words in other scripts pass through unchanged (lower-cased by the caller).
 */
export function soundSkeleton(word: string): string {
  return foldLatin(romaniseCyrillic(word));
}

const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'h',
  ґ: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  є: 'ye',
  ж: 'zh',
  з: 'z',
  и: 'y',
  і: 'i',
  ї: 'yi',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

const CYRILLIC = /[\u0400-\u04FF]/u;

/** Lower-case Cyrillic letters romanised (see {@link soundSkeleton}); other characters kept. */
export function romaniseCyrillic(text: string): string {
  if (!CYRILLIC.test(text)) return text;
  let out = '';
  for (const ch of text) out += CYRILLIC_TO_LATIN[ch] ?? ch;
  return out;
}

/**
 * The Latin folding step of {@link soundSkeleton}. Upper-case letters are the
 * skeleton's own one-letter sounds (`S` sh/shch, `Z` zh, `C` ch), which is
 * why the input must be lower case.
 */
export function foldLatin(word: string): string {
  const folded = word
    .replace(/shch|sch|sh/g, 'S')
    .replace(/zh/g, 'Z')
    .replace(/tch|ch/g, 'C')
    .replace(/[cq]/g, 'k')
    // After `c` became `k`: the `c` written here is only ever `ts`/`tz` (Cyrillic `ц`).
    .replace(/ts|tz/g, 'c')
    .replace(/kh|h|g/g, 'g')
    .replace(/[yj]/g, 'i')
    .replace(/w/g, 'v');
  let out = '';
  let previous = '';
  for (const ch of folded) {
    if (ch !== previous) out += ch;
    previous = ch;
  }
  return out;
}
