import en from '@nlpjs/lang-en-min';
import ru from '@nlpjs/lang-ru';
import uk from '@nlpjs/lang-uk';
import { STOPWORDS } from './stopwords.js';

/**
 * Language-aware analysis of the keyword leg, the same for chunks at
 * ingestion and for messages: Unicode letter/digit runs, NFKC, lower case,
 * ё → е, stop words dropped, then a Snowball-style stem by script and
 * language (Latin: English; Cyrillic: Ukrainian or Russian). So "leaves" and
 * "leave", "відпустки" and "відпусткою", "отпуска" and "отпуском" meet on one
 * term, which the `simple` configuration never did.
 */

/** Words longer than this are not words (hashes, base64): they are skipped rather than indexed. */
const MAX_WORD_LENGTH = 64;

/** PostgreSQL keeps tsvector positions up to 16383; later words share the last one. */
const MAX_POSITION = 16_383;

const english = new en.StemmerEn();
const russian = new ru.StemmerRu();
const ukrainian = new uk.StemmerUk();

/** The packages' English and Russian lists (Ukrainian has none) and our own three-language list. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  ...Object.keys(new en.StopwordsEn().dictionary),
  ...Object.keys(new ru.StopwordsRu().dictionary).map((w) => w.replace(/ё/g, 'е')),
  ...[...STOPWORDS].map((w) => w.replace(/ё/g, 'е')),
]);

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
/** Letters only Ukrainian writes. */
const UKRAINIAN_ONLY = /[іїєґ]/u;
/** Letters only Russian writes (ё is folded to е before this test, so it is checked on the raw text). */
const RUSSIAN_ONLY = /[ыэъё]/u;

/** Which Cyrillic stemmer(s) a text's words without a telling letter get. */
export type CyrillicGuess = 'uk' | 'ru' | 'both';

/**
 * The Cyrillic language of a whole text by its telling letters (і ї є ґ
 * against ы э ъ ё); `both` when it has none or as many of each, so a short
 * text like "ноутбук" is stemmed both ways and meets either language.
 */
export function guessCyrillic(text: string): CyrillicGuess {
  const lower = text.toLowerCase();
  const ukCount = lower.match(/[іїєґ]/gu)?.length ?? 0;
  const ruCount = lower.match(/[ыэъё]/gu)?.length ?? 0;
  if (ukCount > ruCount) return 'uk';
  if (ruCount > ukCount) return 'ru';
  return 'both';
}

/** One analysed word: its stems (one, or two for an undecided Cyrillic word) and its 1-based position. */
export interface AnalysedWord {
  stems: string[];
  position: number;
}

/**
 * The stems of one word (already lower case, NFKC, ё folded), by script:
 * Latin → English; Cyrillic → Ukrainian when the word has a Ukrainian-only
 * letter, Russian when it has a Russian-only one, else the text's guess;
 * anything else (digits, other scripts) stays as it is.
 */
export function stemWord(word: string, rawWord: string, guess: CyrillicGuess): string[] {
  if (CYRILLIC.test(word)) {
    const language = UKRAINIAN_ONLY.test(word) ? 'uk' : RUSSIAN_ONLY.test(rawWord) ? 'ru' : guess;
    const uaStem = language === 'ru' ? null : ukrainian.stemWord(word) || word;
    const ruStem = language === 'uk' ? null : russian.stemWord(word) || word;
    return [...new Set([uaStem, ruStem].filter((s): s is string => Boolean(s)))];
  }
  if (LATIN.test(word) && !/\p{N}/u.test(word)) return [english.stemWord(word) || word];
  return [word];
}

/**
 * Analyses a text into its indexable words, in order. Stop words are dropped
 * (unless written in capitals, as "IT" or "US" are names more than function
 * words) but still count as positions, so phrase distances stay true.
 * `keepStopWords` keeps them all (a message made only of stop words still
 * searches for something).
 */
export function analyseText(text: string, options: { keepStopWords?: boolean } = {}): AnalysedWord[] {
  const normalised = text.normalize('NFKC');
  const guess = guessCyrillic(normalised);
  const words: AnalysedWord[] = [];
  let position = 0;
  for (const match of normalised.matchAll(/[\p{L}\p{N}]+/gu)) {
    const raw = match[0];
    position++;
    if (raw.length > MAX_WORD_LENGTH) continue;
    const rawLower = raw.toLowerCase();
    const word = rawLower.replace(/ё/g, 'е');
    const shouted = raw.length >= 2 && raw === raw.toUpperCase() && raw !== rawLower;
    if (!options.keepStopWords && !shouted && STOP_WORDS.has(word)) continue;
    words.push({ stems: stemWord(word, rawLower, guess), position: Math.min(position, MAX_POSITION) });
  }
  return words;
}

/** What a chunk stores for the keyword leg. */
export interface KeywordIndexEntry {
  /** A PostgreSQL tsvector literal: each term with the positions it occurs at (tf = number of positions). */
  terms: string;
  /** Indexed words (stop words excluded): the document length of BM25. */
  termCount: number;
}

/**
 * The keyword index entry of a text to index: a chunk's content, or its
 * content followed by anything else that should find it (synthetic
 * questions, a title). Terms contain letters and digits only, so the
 * literal needs no escaping beyond the quotes.
 */
export function keywordIndexEntry(text: string): KeywordIndexEntry {
  const positions = new Map<string, number[]>();
  const words = analyseText(text);
  for (const { stems, position } of words) {
    for (const stem of stems) {
      const list = positions.get(stem);
      if (!list) positions.set(stem, [position]);
      else if (list[list.length - 1] !== position) list.push(position);
    }
  }
  const terms = [...positions].map(([term, at]) => `'${term}':${at.join(',')}`).join(' ');
  return { terms, termCount: words.length };
}

/** Most terms a message sends to the keyword leg; a longer message keeps its first distinct ones. */
export const MAX_QUERY_TERMS = 32;

/**
 * The distinct terms of a message for the keyword leg, in order of first
 * appearance, at most {@link MAX_QUERY_TERMS}; stop words only when the
 * message has nothing else. Safe to quote into a tsquery (letters and digits).
 */
export function queryKeywordTerms(text: string): string[] {
  let words = analyseText(text);
  if (words.length === 0) words = analyseText(text, { keepStopWords: true });
  return [...new Set(words.flatMap((w) => w.stems))].slice(0, MAX_QUERY_TERMS);
}
