import en from '@nlpjs/lang-en-min';
import ru from '@nlpjs/lang-ru';
import uk from '@nlpjs/lang-uk';
import { soundSkeleton } from './transliterate.js';
import { WORKPLACE_CONCEPTS } from './workplace-terms.js';

/**
 * Content terms of a text for matching a question with a passage: words
 * (NFKC, lower case, ё → е), function words dropped, each word's stems
 * (English for Latin; Ukrainian and/or Russian for Cyrillic) and the
 * workplace concepts (workplace-terms.ts) it is part of, so "vacation",
 * "annual leave", "відпустка" and "отпуск" meet on one concept.
 */

const english = new en.StemmerEn();
const russian = new ru.StemmerRu();
const ukrainian = new uk.StemmerUk();

/** Ukrainian function words (the Ukrainian package has no list); English and Russian come from the packages. */
const UKRAINIAN_STOP =
  'а але б би бо в від до є же з за і із й к ли мене мені ми мій моя моє мої на над не ні но о об от по під при ' +
  'про та так також те то тут у хто це цей ця ці чи що як який яка яке які ти ви він вона воно вони його її їх ' +
  'їм нам вам був була було були буде бути можна треба мати маю має де коли чому скільки мій свій своє свої ' +
  'я ж щоб якщо або ще вже через після перед між для';
/** Question and conversation words that say how something is asked, not what about. */
const EXTRA_STOP =
  'how many much long often soon what when where which who why whom can could would should do does did get got ' +
  'need want like know tell please hi hello thanks thank im i’m ' +
  'сколько можно нужно надо какой какая какие каких мой свой свои для чтобы если или ещё еще уже через после перед ' +
  'подскажите скажите пожалуйста привет здравствуйте спасибо хочу хотел хотела ' +
  'підкажіть скажіть будь ласка привіт вітаю дякую хочу хотів хотіла потрібно';

const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    ...Object.keys(new en.StopwordsEn().dictionary),
    ...Object.keys(new ru.StopwordsRu().dictionary),
    ...UKRAINIAN_STOP.split(' '),
    ...EXTRA_STOP.split(' '),
  ].map((w) => w.replace(/ё/g, 'е')),
);

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;

/** One content word of a text: its stems and the concepts it belongs to. */
export interface TermUnit {
  word: string;
  stems: readonly string[];
  concepts: Set<number>;
  /** Spelling-tolerant keys (see {@link fuzzyKeys}). */
  fuzzy: readonly string[];
  /** A number written with digits. */
  number: boolean;
}

/** The words of a text as matching keys (lower case, NFKC, ё → е, apostrophes inside words dropped). */
export function plainWords(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/ё/g, 'е')
      .replace(/(?<=\p{L})['’ʼ`](?=\p{L})/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The stems of one word; a Cyrillic word without a telling letter gets both languages' stems. */
export function stemsOf(word: string): string[] {
  if (CYRILLIC.test(word)) {
    const ukOnly = /[іїєґ]/u.test(word);
    const ruOnly = /[ыэъ]/u.test(word);
    const stems = [
      ruOnly ? null : ukrainian.stemWord(word) || word,
      ukOnly ? null : russian.stemWord(word) || word,
    ];
    return [...new Set(stems.filter((s): s is string => Boolean(s)))];
  }
  if (LATIN.test(word) && !/\p{N}/u.test(word)) return [english.stemWord(word) || word];
  return [word];
}

/** Whether a word is a function word (dropped from matching). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

interface ConceptPhrase {
  concept: number;
  /** Stem options per word of the phrase (function words dropped). */
  words: readonly (readonly string[])[];
}

let phraseIndex: Map<string, ConceptPhrase[]> | null = null;

/** Phrases by the first stem of their first word, built once. */
function phrasesByFirstStem(): Map<string, ConceptPhrase[]> {
  if (phraseIndex) return phraseIndex;
  const index = new Map<string, ConceptPhrase[]>();
  WORKPLACE_CONCEPTS.forEach((line, concept) => {
    for (const phrase of line.split('|')) {
      const words = plainWords(phrase)
        .filter((w) => !isStopWord(w))
        .map(stemsOf);
      if (words.length === 0) continue;
      for (const stem of words[0]!) {
        const list = index.get(stem) ?? [];
        list.push({ concept, words });
        index.set(stem, list);
      }
    }
  });
  phraseIndex = index;
  return index;
}

/**
 * The content words of a text, in order, each with its stems and the
 * workplace concepts whose phrase it belongs to (a phrase of several words
 * marks all its words, only where the words stand together).
 */
export function termUnits(text: string): TermUnit[] {
  const units: TermUnit[] = plainWords(text)
    .filter((w) => !isStopWord(w))
    .map((word) => ({
      word,
      stems: stemsOf(word),
      concepts: new Set<number>(),
      fuzzy: fuzzyKeys(word),
      number: /^\p{N}+$/u.test(word),
    }));
  const index = phrasesByFirstStem();
  units.forEach((unit, start) => {
    const phrases = new Set(unit.stems.flatMap((s) => index.get(s) ?? []));
    for (const phrase of phrases) {
      const fits = phrase.words.every((options, offset) => {
        const at = units[start + offset];
        return at?.stems.some((s) => options.includes(s)) ?? false;
      });
      if (!fits) continue;
      for (let offset = 0; offset < phrase.words.length; offset++)
        units[start + offset]!.concepts.add(phrase.concept);
    }
  });
  return units;
}

/** Everything a text holds to match against: its stems and concepts. */
export interface TermBag {
  stems: Set<string>;
  concepts: Set<number>;
  fuzzy: Set<string>;
}

/** The stems and concepts of a text (or of units already analysed). */
export function termBag(source: string | readonly TermUnit[]): TermBag {
  const units = typeof source === 'string' ? termUnits(source) : source;
  const bag: TermBag = { stems: new Set(), concepts: new Set(), fuzzy: new Set() };
  for (const unit of units) {
    for (const stem of unit.stems) bag.stems.add(stem);
    for (const key of unit.fuzzy) bag.fuzzy.add(key);
    for (const concept of unit.concepts) bag.concepts.add(concept);
  }
  return bag;
}

/** Whether a bag holds a unit: one of its stems, or one of its concepts. */
export function bagHas(bag: TermBag, unit: TermUnit): boolean {
  return (
    unit.stems.some((s) => bag.stems.has(s)) ||
    [...unit.concepts].some((c) => bag.concepts.has(c)) ||
    unit.fuzzy.some((k) => bag.fuzzy.has(k))
  );
}

/**
 * Spelling-tolerant keys of a word of five letters or more: the first six
 * letters of its sound skeleton (core/text/transliterate.ts: Latin and
 * Cyrillic spellings, і/и/ы and doubled letters folded), so "символив" and
 * "символів", "anual" and "annual", "vidpustka" and "відпустка" meet.
 */
export function fuzzyKeys(word: string): string[] {
  if (word.length < 5 || /\p{N}/u.test(word)) return [];
  const skeleton = soundSkeleton(word);
  const keys: string[] = [];
  if (skeleton.length >= 5) keys.push(`p:${skeleton.slice(0, 6)}`);
  return keys;
}

/** The other names of a unit's concepts (every language), for query expansion. */
export function conceptPhrases(concept: number): string[] {
  return (WORKPLACE_CONCEPTS[concept] ?? '').split('|');
}
