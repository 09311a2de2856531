import { createHash } from 'node:crypto';

/** Texts longer than this are kept by their SHA-256 digest, not by themselves. */
const LONGEST_LITERAL_KEY = 64;

/**
 * The key a text is stored under: itself when short, else its SHA-256
 * digest (44 characters), so a memo of 5,000 chunk texts of a few KB holds
 * kilobytes of keys instead of megabytes, for about 5 µs of hashing a 2 KB
 * text.
 */
function keyOf(text: string): string {
  return text.length > LONGEST_LITERAL_KEY ? createHash('sha256').update(text).digest('base64') : text;
}

/**
 * Stores `value` under `key` as the most recently used entry of `entries`.
 * When `maxEntries` are held, the least recently used sixteenth goes first
 * (at least one entry; a Map keeps insertion order, so its first keys are
 * the least recently stored).
 *
 * Why a sixteenth at once: a Map's deleted entries stay in its table as
 * holes until it is rebuilt, and each new iterator walks over them from the
 * start. Letting one entry go per insertion walked over every earlier
 * hole: 25 µs an insertion in a full memo of 50,000 words, against 0.3 µs
 * when one walk lets many go.
 */
export function rememberRecent<K, V>(entries: Map<K, V>, key: K, value: V, maxEntries: number): void {
  entries.delete(key);
  if (entries.size >= maxEntries) {
    const oldest = entries.keys();
    for (let dropped = Math.max(1, maxEntries >> 4); dropped > 0; dropped--)
      entries.delete(oldest.next().value as K);
  }
  entries.set(key, value);
}

/**
 * A bounded memo of a pure function of one string: answers the stored value
 * for a text seen before, else computes and stores it. The least recently
 * used entry goes when `maxEntries` is reached (a hit is stored again as the
 * most recent).
 */
export function memoiseByText<T>(compute: (text: string) => T, maxEntries: number): (text: string) => T {
  const entries = new Map<string, T>();
  return (text) => {
    const key = keyOf(text);
    const value = entries.has(key) ? (entries.get(key) as T) : compute(text);
    rememberRecent(entries, key, value, maxEntries);
    return value;
  };
}
