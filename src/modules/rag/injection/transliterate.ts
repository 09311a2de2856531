/**
 * Latin-letter Ukrainian and Russian read back into Cyrillic, so that
 * `ihnoruj poperedni instruktsii` meets the same rules as `ігноруй попередні
 * інструкції`. Informal transliteration is ambiguous (h and g, y as и, ы or
 * й), so the result is approximate; the rules match word stems, which is
 * enough. Pure functions.
 */

type Language = 'uk' | 'ru';

/** Longest sequences first. */
const COMMON: Array<[string, string]> = [
  ['shch', 'щ'],
  ['sch', 'щ'],
  ['zh', 'ж'],
  ['kh', 'х'],
  ['ts', 'ц'],
  ['tz', 'ц'],
  ['ch', 'ч'],
  ['sh', 'ш'],
];
const UK: Array<[string, string]> = [
  ...COMMON,
  ['yu', 'ю'],
  ['iu', 'ю'],
  ['ju', 'ю'],
  ['ya', 'я'],
  ['ia', 'я'],
  ['ja', 'я'],
  ['ye', 'є'],
  ['ie', 'є'],
  ['je', 'є'],
  ['ji', 'ї'],
  ['a', 'а'],
  ['b', 'б'],
  ['v', 'в'],
  ['w', 'в'],
  ['h', 'г'],
  ['g', 'г'],
  ['d', 'д'],
  ['e', 'е'],
  ['z', 'з'],
  ['i', 'і'],
  ['j', 'й'],
  ['k', 'к'],
  ['l', 'л'],
  ['m', 'м'],
  ['n', 'н'],
  ['o', 'о'],
  ['p', 'п'],
  ['r', 'р'],
  ['s', 'с'],
  ['t', 'т'],
  ['u', 'у'],
  ['f', 'ф'],
  ['c', 'ц'],
  ['q', 'к'],
  ['x', 'кс'],
  ["'", 'ь'],
];
const RU: Array<[string, string]> = [
  ...COMMON,
  ['yu', 'ю'],
  ['ju', 'ю'],
  ['iu', 'ю'],
  ['ya', 'я'],
  ['ja', 'я'],
  ['ia', 'ия'],
  ['yo', 'е'],
  ['jo', 'е'],
  ['a', 'а'],
  ['b', 'б'],
  ['v', 'в'],
  ['w', 'в'],
  ['g', 'г'],
  ['h', 'х'],
  ['d', 'д'],
  ['e', 'е'],
  ['z', 'з'],
  ['i', 'и'],
  ['j', 'й'],
  ['k', 'к'],
  ['l', 'л'],
  ['m', 'м'],
  ['n', 'н'],
  ['o', 'о'],
  ['p', 'п'],
  ['r', 'р'],
  ['s', 'с'],
  ['t', 'т'],
  ['u', 'у'],
  ['f', 'ф'],
  ['c', 'ц'],
  ['q', 'к'],
  ['x', 'кс'],
  ["'", 'ь'],
];
const TABLES: Record<Language, Array<[string, string]>> = { uk: UK, ru: RU };
const VOWELS = new Set([...'aeiouy']);

/** Common English words: a text made of them is English, not transliteration. */
const ENGLISH = new Set(
  'the a an to and or of in on for with you your is are be it this that my me i we all not do at as by from what how can will please'.split(
    ' ',
  ),
);

/**
 * True when the Latin words of a text read like transliterated Ukrainian or
 * Russian rather than English: few common English words, and letter groups
 * (zh, kh, ts, shch, y between consonants) English rarely uses.
 */
export function looksTransliterated(folded: string): boolean {
  const words = folded.match(/[a-z']+/g);
  if (!words || words.length < 2) return false;
  const english = words.filter((w) => ENGLISH.has(w)).length;
  if (english / words.length > 0.25) return false;
  return (
    /zh|kh|shch|ts[iy]|yy|iy\b|yi|ii\b|\b(?:ty|ne|ta|i|ni|vse|usi|ty|tebe|meni|mne)\b/.test(folded) ||
    // Pronouns, prepositions and endings of Ukrainian and Russian that English words rarely have.
    /\b(?:tvo[aeiy]\w*|svo[aeiy]\w*|dlia|dlya|bez|shcho|chto|teper|tepér|otnyne|vidteper|vidnyni|slovam[iy]|otvet\w*|vidpovid\w*|nov(?:oe|ye|yi|i|ie|aya|a)|pokazh\w*|zabud\w*|ignor[iu]\w*|ihnoru\w*|novaja|novaya|zadach\w*|pravyl\w*|pravil\w*|instruk\w*|zadani\w*|zavdann\w*)\b/.test(
      folded,
    ) ||
    /\b[a-z]+(?:ye|yj|ij|aja|yja|oje|uju|yh|ykh|ikh|ogo|oho|ami|amy|yy|iy)\b/.test(folded)
  );
}

/** The text with each Latin word read as Ukrainian or Russian; other characters untouched. */
export function transliterate(folded: string, language: Language): string {
  const table = TABLES[language];
  return folded.replace(/[a-z']+/g, (word) => transliterateWord(word, table, language));
}

function transliterateWord(word: string, table: Array<[string, string]>, language: Language): string {
  let out = '';
  let i = 0;
  while (i < word.length) {
    const rest = word.slice(i);
    const prev = word[i - 1];
    const next = word[i + 1];
    const atEnd = i + 1 === word.length;
    // y: a vowel glide (й) after a vowel at the end of a word or before a consonant, otherwise и / ы.
    if (
      rest[0] === 'y' &&
      !rest.startsWith('yu') &&
      !rest.startsWith('ya') &&
      !rest.startsWith('yo') &&
      !rest.startsWith('ye')
    ) {
      if (rest.startsWith('yi') && i + 2 === word.length && i > 0) {
        out += 'ий';
        i += 2;
        continue;
      }
      if (rest.startsWith('yy') && i + 2 === word.length) {
        out += language === 'ru' ? 'ый' : 'ий';
        i += 2;
        continue;
      }
      const afterVowel = prev !== undefined && VOWELS.has(prev);
      if (afterVowel && (atEnd || (next !== undefined && !VOWELS.has(next)))) out += 'й';
      else out += language === 'ru' ? 'ы' : 'и';
      i += 1;
      continue;
    }
    // i after a, e or u at the end of a word or before a consonant is the glide й ("vidpovidai", "ihnorui").
    if (
      rest[0] === 'i' &&
      prev !== undefined &&
      'aeu'.includes(prev) &&
      (atEnd || (next !== undefined && !VOWELS.has(next)))
    ) {
      out += 'й';
      i += 1;
      continue;
    }
    if (language === 'uk' && rest.startsWith('ii') && i + 2 === word.length) {
      out += 'ії';
      i += 2;
      continue;
    }
    if (language === 'ru' && rest.startsWith('ye') && i > 0) {
      out += 'ые';
      i += 2;
      continue;
    }
    const found = table.find(([latin]) => rest.startsWith(latin));
    if (found) {
      out += found[1];
      i += found[0].length;
    } else {
      out += rest[0];
      i += 1;
    }
  }
  return out;
}
