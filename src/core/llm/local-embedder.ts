import { memoiseByText } from '../memo.js';
import { soundSkeleton } from '../text/transliterate.js';
import type { EmbeddingProvider } from './llm.js';
import { isFunctionWord } from './local-embedder-function-words.js';

/**
 * Version of the feature set below. Vectors made by another version are not
 * comparable with this one's: bump it with every change to the features or
 * weights, and stored vectors are re-embedded (see `npm run reindex`).
 */
export const LOCAL_EMBEDDER_VERSION = 'local-v2';

/**
 * Cosine at or above which a message and an intent example of this embedder
 * share their content words (measured on the team's intent set, see
 * docs/intents.md): paraphrases of one request land around 0.3 to 0.6,
 * unrelated texts below 0.3.
 */
export const LOCAL_MATCH_SIMILARITY = 0.33;

/**
 * The offline embedder: deterministic, needs no network, and LEXICAL, not
 * semantic. It hashes features of the text into a fixed-length vector
 * (feature hashing, the "hashing trick"):
 *
 * - the text is normalised ({@link lexicalWords}): NFKC, lower case,
 *   invisible characters removed, `ё` read as `е`, apostrophes dropped inside
 *   words (Ukrainian `м'ясо`); words are runs of Unicode letters and digits;
 * - every word is also read as its sound skeleton (`core/text/transliterate.ts`):
 *   Cyrillic romanised and Latin spellings folded, so `vidpustka` and
 *   `відпустка`, `bolnichnyi` and `больничный` become the same letters;
 * - features of a word: the word itself (weight 0.5), its skeleton (weight
 *   0.5), and the character 3-, 4- and 5-grams of the skeleton padded with
 *   boundary marks, sharing a weight of 1.6 (each n-gram gets 1.6 / √count,
 *   so a long word does not outweigh a short one). The n-grams are what keep
 *   inflected forms (`відпустка`, `відпустку`), typos (`vacaton`) and
 *   transliterations close: they share most of them;
 * - function words (`the`, `my`, `і`, `мне`: a short list per language) and
 *   one-letter words count 0.25 as much, so two messages are not close
 *   merely because both say "how do I";
 * - each feature lands in one of `dimensions` buckets by an FNV-1a hash, with
 *   a sign from a second mix so collisions cancel out on average;
 * - the result is L2-normalised, so cosine similarity is a dot product.
 *
 * Consequences: identical texts have cosine 1; a text has cosine close to 1
 * with a passage of about the same words, and lower with a long passage that
 * merely contains it (the passage's other words dilute the vector).
 * Synonyms and translations are NOT close (unless they share letters): use an
 * embedding model for that. Cost: about 0.2 ms for a 500-character passage and
 * 0.1 ms for a 20-word message (docs/llm.md).
 */
export function createLocalEmbedder(dimensions: number): EmbeddingProvider & {
  embedOne(text: string): number[];
} {
  if (!Number.isInteger(dimensions) || dimensions < 2) {
    throw new Error(`local embedder needs an integer dimension of at least 2, got ${dimensions}`);
  }
  const embedOne = (text: string): number[] => {
    const vector = new Float64Array(dimensions);
    for (const word of lexicalWords(text)) addWord(vector, word);
    let norm = 0;
    for (const v of vector) norm += v * v;
    norm = Math.sqrt(norm);
    return Array.from(vector, (v) => (norm > 0 ? v / norm : 0));
  };
  return {
    name: 'local',
    version: `${LOCAL_EMBEDDER_VERSION}:${dimensions}`,
    matchSimilarity: LOCAL_MATCH_SIMILARITY,
    lexical: true,
    dimensions,
    embedOne,
    async embed(texts) {
      return texts.map(embedOne);
    },
  };
}

const WORD_WEIGHT = 0.5;
const SKELETON_WEIGHT = 0.5;
const NGRAM_WEIGHT = 1.6;
const FUNCTION_WORD_FACTOR = 0.25;
const MIN_NGRAM = 3;
const MAX_NGRAM = 5;

/** Hash bases, one per kind of feature, so a word and an n-gram with the same letters land apart. */
const WORD_BASIS = 0x811c9dc5;
const SKELETON_BASIS = 0x9e3779b9;
const NGRAM_BASIS = 0x7f4a7c15;

function addWord(vector: Float64Array, word: string): void {
  const factor = word.length < 2 || isFunctionWord(word) ? FUNCTION_WORD_FACTOR : 1;
  add(vector, fnv1a(word, 0, word.length, WORD_BASIS), WORD_WEIGHT * factor);
  const skeleton = skeletonOf(word);
  add(vector, fnv1a(skeleton, 0, skeleton.length, SKELETON_BASIS), SKELETON_WEIGHT * factor);
  // \u0002 and \u0003 mark the word's start and end, so a prefix n-gram differs from the same letters inside.
  const padded = `\u0002${skeleton}\u0003`;
  const n = padded.length;
  let count = 0;
  for (let size = MIN_NGRAM; size <= MAX_NGRAM; size++) count += Math.max(0, n - size + 1);
  if (count === 0) return;
  const weight = (NGRAM_WEIGHT * factor) / Math.sqrt(count);
  for (let start = 0; start + MIN_NGRAM <= n; start++) {
    // One running hash per start position yields its 3-, 4- and 5-gram in turn.
    let hash = NGRAM_BASIS;
    const end = Math.min(n, start + MAX_NGRAM);
    for (let i = start; i < end; i++) {
      hash = Math.imul(hash ^ padded.charCodeAt(i), 0x01000193) >>> 0;
      if (i - start + 1 >= MIN_NGRAM) add(vector, hash, weight);
    }
  }
}

/** `soundSkeleton`, remembered for the words seen lately: it costs a dozen regular expressions, and words repeat. */
const skeletonOf = memoiseByText(soundSkeleton, 50_000);

/** Zero-width and other format characters that change nothing a reader sees. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/gu;
const APOSTROPHE_IN_WORD = /(?<=\p{L})['’ʼ`](?=\p{L})/gu;
const WORD = /[\p{L}\p{N}]+/gu;

const NOT_ASCII = /[^\p{ASCII}]/u;
const ASCII_APOSTROPHE_IN_WORD = /(?<=[A-Za-z])['`](?=[A-Za-z])/g;
const ASCII_WORD = /[a-z0-9]+/g;

/** The normalised words of a text, in order (see {@link createLocalEmbedder}). */
export function lexicalWords(text: string): string[] {
  // The same steps for a text of ASCII alone, where NFKC changes nothing, no invisible
  // character or ё occurs, and a Unicode letter or digit is one of [A-Za-z0-9]: about
  // twice as fast, and most chunk texts of an English knowledge base are such texts.
  if (!NOT_ASCII.test(text)) {
    const joined =
      text.includes("'") || text.includes('`') ? text.replace(ASCII_APOSTROPHE_IN_WORD, '') : text;
    return joined.toLowerCase().match(ASCII_WORD) ?? [];
  }
  const normalised = text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(APOSTROPHE_IN_WORD, '')
    .toLowerCase()
    .replace(/ё/g, 'е');
  return normalised.match(WORD) ?? [];
}

/** Adds `weight` to the bucket of a feature hash (mixed first: FNV's low bits alone are weak), signed. */
function add(vector: Float64Array, featureHash: number, weight: number): void {
  let mixed = featureHash ^ (featureHash >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  mixed = (mixed ^ (mixed >>> 16)) >>> 0;
  const index = mixed % vector.length;
  const sign = Math.imul(mixed, 0x9e3779b1) < 0 ? 1 : -1;
  vector[index] = (vector[index] ?? 0) + sign * weight;
}

/** 32-bit FNV-1a over the UTF-16 code units of `text[from, to)`, with a chosen offset basis. */
function fnv1a(text: string, from: number, to: number, basis: number): number {
  let hash = basis >>> 0;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash >>> 0;
}
