/**
 * pg_trgm's `word_similarity(query, text)` computed in the service, to the
 * same float4 value, so that retrieval served from the in-memory indexes
 * scores a chunk exactly as the SQL query does (rag.repository.ts). The
 * steps follow pg_trgm's (contrib/pg_trgm/trgm_op.c, PostgreSQL 15 to 18):
 *
 * - words are maximal runs of letters and digits, lower-cased one character
 *   at a time (the database's `C.UTF-8` character classes and case
 *   mapping), padded with two spaces before and one after;
 * - each three consecutive characters of a padded word make a trigram:
 *   its three bytes when they are three single-byte characters, otherwise
 *   three bytes of the "legacy" CRC-32 of its UTF-8 bytes (so, as in
 *   PostgreSQL, two different trigrams may rarely share a code);
 * - the similarity is the best `count / (ulen1 + ulen2 − count)` over
 *   extents of the text's trigrams, found by pg_trgm's own greedy walk
 *   (`iterate_word_similarity`), where count is the query's distinct
 *   trigrams inside the extent, ulen1 all of the query's distinct trigrams
 *   and ulen2 the extent's distinct trigrams.
 *
 * A test compares it with PostgreSQL's and PGlite's pg_trgm on texts in
 * the three languages, typos and punctuation included.
 */

/** pg_crc32_table: CRC-32 of polynomial 0x04C11DB7, reflected (0xEDB88320). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** PostgreSQL's legacy CRC-32 (`COMP_LEGACY_CRC32`: the reflected table, shifted left). */
function legacyCrc32(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = (CRC_TABLE[((crc >>> 24) ^ bytes[i]!) & 0xff]! ^ (crc << 8)) >>> 0;
  return (crc ^ 0xffffffff) >>> 0;
}

const NON_ASCII_WORD_CHAR = /[\p{Alphabetic}\p{Nd}]/u;

/**
 * Each character met so far, folded: 0 not yet met, −1 not a letter or
 * digit, else its lower case plus one. A table for the Basic Multilingual
 * Plane (256 KB, one read a character), a map above it: texts repeat few
 * characters, and asking the regular expression is slow.
 */
const foldedBmp = new Int32Array(0x10000);
const foldedAbove = new Map<number, number>();

/**
 * A character as pg_trgm reads it under `C.UTF-8`: −1 when it is not a
 * letter or digit (`t_isalnum`), else its lower case (`towlower`: one
 * character to one, the simple case mapping; JavaScript's full mapping may
 * give two, of which the first is kept).
 */
function foldWordChar(codePoint: number): number {
  let folded = codePoint < 0x10000 ? foldedBmp[codePoint]! : (foldedAbove.get(codePoint) ?? 0);
  if (folded === 0) {
    const character = String.fromCodePoint(codePoint);
    folded = NON_ASCII_WORD_CHAR.test(character) ? character.toLowerCase().codePointAt(0)! + 1 : -1;
    if (codePoint < 0x10000) foldedBmp[codePoint] = folded;
    else foldedAbove.set(codePoint, folded);
  }
  return folded < 0 ? -1 : folded - 1;
}

/** Writes the UTF-8 bytes of a code point at `at`; answers the next free index. */
function putUtf8(bytes: Uint8Array, at: number, codePoint: number): number {
  if (codePoint < 0x80) {
    bytes[at] = codePoint;
    return at + 1;
  }
  if (codePoint < 0x800) {
    bytes[at] = 0xc0 | (codePoint >> 6);
    bytes[at + 1] = 0x80 | (codePoint & 0x3f);
    return at + 2;
  }
  if (codePoint < 0x10000) {
    bytes[at] = 0xe0 | (codePoint >> 12);
    bytes[at + 1] = 0x80 | ((codePoint >> 6) & 0x3f);
    bytes[at + 2] = 0x80 | (codePoint & 0x3f);
    return at + 3;
  }
  bytes[at] = 0xf0 | (codePoint >> 18);
  bytes[at + 1] = 0x80 | ((codePoint >> 12) & 0x3f);
  bytes[at + 2] = 0x80 | ((codePoint >> 6) & 0x3f);
  bytes[at + 3] = 0x80 | (codePoint & 0x3f);
  return at + 4;
}

const SPACE = 32;
const window = new Uint8Array(12);

/** The code of the trigram of three characters (`compact_trigram`). */
function trigramCode(a: number, b: number, c: number): number {
  if (a < 0x80 && b < 0x80 && c < 0x80) return (a << 16) | (b << 8) | c;
  const length = putUtf8(window, putUtf8(window, putUtf8(window, 0, a), b), c);
  // CPTRGM copies the CRC's first three bytes in memory: little-endian, its low three.
  const crc = legacyCrc32(window, 0, length);
  return ((crc & 0xff) << 16) | (((crc >>> 8) & 0xff) << 8) | ((crc >>> 16) & 0xff);
}

/** Trigrams written by {@link writeTrigrams}: reused, grown to the longest text met. */
let scratch = new Int32Array(1024);

/**
 * Writes the trigram codes of `text` in order, duplicates kept
 * (`generate_trgm_only`), into the scratch array and answers how many:
 * each word, lower-cased and padded with two spaces before and one after,
 * gives one trigram per character and one for the padding after it, made
 * as the characters are read. A text of n UTF-16 units gives at most 2n
 * trigrams (one per letter, one per word end).
 */
function writeTrigrams(text: string): number {
  if (scratch.length < 2 * text.length + 1) scratch = new Int32Array(2 * text.length + 1024);
  const out = scratch;
  let count = 0;
  // The two characters before the next one in the current padded word; inWord false between words.
  let first = SPACE;
  let second = SPACE;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    let codePoint = text.charCodeAt(i);
    let wordChar: boolean;
    let lower: number;
    if (codePoint < 128) {
      // The ASCII path, inline: letters and digits, upper case folded.
      wordChar =
        (codePoint >= 97 && codePoint <= 122) ||
        (codePoint >= 48 && codePoint <= 57) ||
        (codePoint >= 65 && codePoint <= 90);
      lower = codePoint >= 65 && codePoint <= 90 ? codePoint + 32 : codePoint;
    } else {
      if (codePoint >= 0xd800 && codePoint <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          codePoint = ((codePoint - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          i++;
        }
      }
      lower = foldWordChar(codePoint);
      wordChar = lower >= 0;
    }
    if (wordChar) {
      if (!inWord) {
        first = SPACE;
        second = SPACE;
        inWord = true;
      }
      out[count++] =
        first < 0x80 && second < 0x80 && lower < 0x80
          ? (first << 16) | (second << 8) | lower
          : trigramCode(first, second, lower);
      first = second;
      second = lower;
    } else if (inWord) {
      out[count++] = trigramCode(first, second, SPACE);
      inWord = false;
    }
  }
  if (inWord) out[count++] = trigramCode(first, second, SPACE);
  return count;
}

/** The trigram codes of `text` in order, duplicates kept (`generate_trgm_only`). */
export function trigramsOf(text: string): number[] {
  return Array.from(scratch.subarray(0, writeTrigrams(text)));
}

/** A text's trigrams, each position naming one of its distinct codes. */
export interface TrigramProfile {
  /** The distinct trigram codes, in order of first appearance. */
  codes: Int32Array;
  /** For each trigram of the text in order, the index of its code in `codes`. */
  positions: Int32Array;
}

/**
 * An open-addressing table from trigram code to its index in a profile,
 * reused by every profile: `marks` tells which slots the current profile
 * filled, so nothing is cleared between texts.
 */
let slotCodes = new Int32Array(4096);
let slotIndexes = new Int32Array(4096);
let slotMarks = new Uint32Array(4096);
let mark = 0;

/**
 * Makes the table at least twice `entries` (a power of two) and starts a
 * new profile in it; answers the shift that leaves a hash's top bits, as
 * many as the table's size has.
 */
function startTable(entries: number): number {
  let size = slotCodes.length;
  while (size < 2 * entries) size *= 2;
  if (size !== slotCodes.length) {
    slotCodes = new Int32Array(size);
    slotIndexes = new Int32Array(size);
    slotMarks = new Uint32Array(size);
    mark = 0;
  }
  mark = mark === 0xffffffff ? 1 : mark + 1;
  if (mark === 1) slotMarks.fill(0);
  return 32 - Math.log2(size);
}

/**
 * The {@link TrigramProfile} of a text (a chunk's content, computed once
 * and kept by the caller): one pass over the text, and one over its
 * trigrams to number the distinct ones in order of first appearance.
 */
export function trigramProfile(text: string): TrigramProfile {
  const count = writeTrigrams(text);
  const shift = startTable(count);
  const mask = slotCodes.length - 1;
  const positions = new Int32Array(count);
  const distinct = new Int32Array(count);
  let size = 0;
  for (let i = 0; i < count; i++) {
    const code = scratch[i]!;
    // Fibonacci hashing: the product's top bits mix all three characters of the code.
    let slot = Math.imul(code, 0x9e3779b1) >>> shift;
    while (slotMarks[slot] === mark && slotCodes[slot] !== code) slot = (slot + 1) & mask;
    if (slotMarks[slot] !== mark) {
      slotMarks[slot] = mark;
      slotCodes[slot] = code;
      slotIndexes[slot] = size;
      distinct[size++] = code;
    }
    positions[i] = slotIndexes[slot]!;
  }
  return { codes: distinct.slice(0, size), positions };
}

/** `CALCSML` in float4. */
function similarityOf(count: number, ulen1: number, ulen2: number): number {
  return Math.fround(count / (ulen1 + ulen2 - count));
}

/**
 * `word_similarity` of a query, given as its distinct trigram codes
 * (`new Set(trigramsOf(query))`), and a text: the greatest similarity
 * between the query and an extent of the text, as a float4 in [0, 1].
 */
export function wordSimilarity(query: ReadonlySet<number>, text: TrigramProfile): number {
  return wordSimilarityOver(query, text, 0);
}

/**
 * `greatest(floor, word_similarity(query, text))`, the form the keyword
 * score takes, searching the text's extents only as far as needed. An
 * extent's similarity, count / (ulen1 + ulen2 − count) with ulen2 ≥ count,
 * is at most the share of the query's trigrams found anywhere in the text,
 * and float4 rounding keeps that order. So when the share is not above
 * `floor`, `floor` is the answer (in bench:pipeline for two shortlisted
 * chunks in three), and the search stops at the first extent that reaches
 * the share (a sentence repeated word for word reaches it at once); both
 * answers are pg_trgm's to the bit.
 */
export function wordSimilarityOver(query: ReadonlySet<number>, text: TrigramProfile, floor: number): number {
  const { found, present } = foundIn(query, text);
  const ceiling = query.size === 0 ? 0 : Math.fround(present / query.size);
  if (ceiling <= floor) return Math.max(floor, 0);
  return Math.max(floor, iterate(text.positions, found, query.size, ceiling));
}

/** Which of the text's distinct trigrams the query has (1 or 0), and how many. */
function foundIn(query: ReadonlySet<number>, text: TrigramProfile) {
  const found = new Uint8Array(text.codes.length);
  let present = 0;
  for (let i = 0; i < text.codes.length; i++) {
    if (query.has(text.codes[i]!)) {
      found[i] = 1;
      present++;
    }
  }
  return { found, present };
}

/**
 * `iterate_word_similarity` without the strict and check-only variants;
 * it stops once an extent reaches `ceiling`, which no extent exceeds.
 */
function iterate(trg2indexes: Int32Array, found: Uint8Array, ulen1: number, ceiling: number): number {
  const lastpos = new Int32Array(found.length).fill(-1);
  let ulen2 = 0;
  let count = 0;
  let lower = -1;
  let best = 0;
  for (let i = 0; i < trg2indexes.length; i++) {
    const trgindex = trg2indexes[i]!;
    if (lower >= 0 || found[trgindex] === 1) {
      if (lastpos[trgindex]! < 0) {
        ulen2++;
        if (found[trgindex] === 1) count++;
      }
      lastpos[trgindex] = i;
    }
    if (found[trgindex] === 0) continue;
    const upper = i;
    if (lower === -1) {
      lower = i;
      ulen2 = 1;
    }
    let current = similarityOf(count, ulen1, ulen2);
    // Try moving the extent's start right for a greater similarity.
    let tmpCount = count;
    let tmpUlen2 = ulen2;
    const previousLower = lower;
    for (let tmpLower = lower; tmpLower <= upper; tmpLower++) {
      // No extent starting here or further right beats `current`: its count is at most tmpCount and
      // its distinct trigrams at least its count, so its similarity is at most tmpCount / ulen1
      // (float4 rounding keeps the order). pg_trgm walks on; the answer is the same.
      if (Math.fround(tmpCount / ulen1) <= current) break;
      const candidate = similarityOf(tmpCount, ulen1, tmpUlen2);
      if (candidate > current) {
        current = candidate;
        ulen2 = tmpUlen2;
        lower = tmpLower;
        count = tmpCount;
      }
      const tmpIndex = trg2indexes[tmpLower]!;
      if (lastpos[tmpIndex] === tmpLower) {
        tmpUlen2--;
        if (found[tmpIndex] === 1) tmpCount--;
      }
    }
    best = Math.max(best, current);
    if (best >= ceiling) return best;
    for (let tmpLower = previousLower; tmpLower < lower; tmpLower++) {
      const tmpIndex = trg2indexes[tmpLower]!;
      if (lastpos[tmpIndex] === tmpLower) lastpos[tmpIndex] = -1;
    }
  }
  return best;
}
