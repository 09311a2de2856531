import type { EmbeddingProvider } from './llm.js';

/**
 * The offline embedder: deterministic, needs no network, and LEXICAL, not
 * semantic. It hashes features of the text into a fixed-length vector
 * (feature hashing, the "hashing trick"):
 *
 * - the text is normalised: NFKC, lower case, invisible characters removed,
 *   `ё` read as `е`, apostrophes dropped inside words (Ukrainian `м'ясо`);
 * - words are runs of Unicode letters and digits, so Cyrillic and Latin
 *   scripts behave alike;
 * - features are every word (weight 1) and the character trigrams of every
 *   word padded with boundary marks (weight 0.35 each), so inflected forms
 *   (`відпустка`, `відпустки`) still share most of their features;
 * - each feature lands in one of `dimensions` buckets by an FNV-1a hash, with
 *   a sign from a second hash so collisions cancel out on average;
 * - the result is L2-normalised, so cosine similarity is a dot product.
 *
 * Consequences: identical texts have cosine 1; a text has cosine close to 1
 * with a passage of about the same words, and lower with a long passage that
 * merely contains it (the passage's other words dilute the vector).
 * Synonyms and translations are NOT close: use an embedding model for that.
 */
export function createLocalEmbedder(dimensions: number): EmbeddingProvider & {
  embedOne(text: string): number[];
} {
  if (!Number.isInteger(dimensions) || dimensions < 2) {
    throw new Error(`local embedder needs an integer dimension of at least 2, got ${dimensions}`);
  }
  const embedOne = (text: string): number[] => {
    const vector = new Float64Array(dimensions);
    for (const word of lexicalWords(text)) {
      add(vector, `w\u0001${word}`, WORD_WEIGHT);
      const padded = `\u0002${word}\u0003`;
      for (let i = 0; i + 3 <= padded.length; i++)
        add(vector, `t\u0001${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
    }
    let norm = 0;
    for (const v of vector) norm += v * v;
    norm = Math.sqrt(norm);
    return Array.from(vector, (v) => (norm > 0 ? v / norm : 0));
  };
  return {
    name: 'local',
    dimensions,
    embedOne,
    async embed(texts) {
      return texts.map(embedOne);
    },
  };
}

const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.35;

/** Zero-width and other format characters that change nothing a reader sees. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/gu;
const APOSTROPHE_IN_WORD = /(?<=\p{L})['’ʼ`](?=\p{L})/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** The normalised words of a text, in order (see {@link createLocalEmbedder}). */
export function lexicalWords(text: string): string[] {
  const normalised = text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(APOSTROPHE_IN_WORD, '')
    .toLowerCase()
    .replace(/ё/g, 'е');
  return normalised.match(WORD) ?? [];
}

function add(vector: Float64Array, feature: string, weight: number): void {
  const h = fnv1a(feature, 0x811c9dc5);
  const sign = fnv1a(feature, 0x01000193) & 1 ? 1 : -1;
  const index = h % vector.length;
  vector[index] = (vector[index] ?? 0) + sign * weight;
}

/** 32-bit FNV-1a over UTF-16 code units, with a chosen offset basis. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
