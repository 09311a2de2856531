/**
 * Features of the trained classifier: hashed character n-grams (3 to 5
 * characters, across word boundaries) and hashed words and word pairs of the
 * folded text. Shared by the model at run time and by
 * scripts/train-injection-model.mjs, so both see exactly the same features.
 * Pure functions.
 */

/** Number of hash buckets (2^18): small enough for a committed file, large enough that collisions do not matter. */
export const FEATURE_BUCKETS = 1 << 18;
const MIN_N = 3;
const MAX_N = 5;
/** Long texts are scored per segment; a segment longer than this is cut. */
const MAX_CHARS = 1_000;

/** FNV-1a over the UTF-16 code units of `text` from `start` to `end`, folded into the bucket range. */
function hashRange(text: string, start: number, end: number, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & (FEATURE_BUCKETS - 1);
}

function hash(text: string, seed: number): number {
  return hashRange(text, 0, text.length, seed);
}

/**
 * Sparse feature vector of a folded text: bucket → value, L2-normalised so
 * that long and short texts weigh alike.
 */
export function featurise(folded: string): Map<number, number> {
  const text = ` ${folded.slice(0, MAX_CHARS).replace(/[\p{N}]/gu, '0')} `;
  const counts = new Map<number, number>();
  const add = (bucket: number) => counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  for (let n = MIN_N; n <= MAX_N; n++) {
    // Hashed in place: no substring is built for the thousands of n-grams of a segment.
    for (let i = 0; i + n <= text.length; i++) add(hashRange(text, i, i + n, n));
  }
  const words = text.match(/[\p{L}\p{N}'-]+/gu) ?? [];
  for (let i = 0; i < words.length; i++) {
    add(hash(words[i] ?? '', 101));
    if (i + 1 < words.length) add(hash(`${words[i]} ${words[i + 1]}`, 102));
  }
  let norm = 0;
  for (const [bucket, count] of counts) {
    const value = Math.sqrt(count);
    counts.set(bucket, value);
    norm += value * value;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (const [bucket, value] of counts) counts.set(bucket, value * scale);
  return counts;
}
