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
 * A bounded memo of a pure function of one string: answers the stored value
 * for a text seen before, else computes and stores it. The least recently
 * used entry goes when `maxEntries` is reached (a Map keeps insertion order;
 * a hit re-inserts its entry at the end).
 */
export function memoiseByText<T>(compute: (text: string) => T, maxEntries: number): (text: string) => T {
  const entries = new Map<string, T>();
  return (text) => {
    const key = keyOf(text);
    if (entries.has(key)) {
      const value = entries.get(key) as T;
      entries.delete(key);
      entries.set(key, value);
      return value;
    }
    const value = compute(text);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(key, value);
    return value;
  };
}
