/**
 * A bounded memo of a pure function of one string: answers the stored value
 * for a text seen before, else computes and stores it. The least recently
 * used entry goes when `maxEntries` is reached (a Map keeps insertion order;
 * a hit re-inserts its entry at the end).
 */
export function memoiseByText<T>(compute: (text: string) => T, maxEntries: number): (text: string) => T {
  const entries = new Map<string, T>();
  return (text) => {
    if (entries.has(text)) {
      const value = entries.get(text) as T;
      entries.delete(text);
      entries.set(text, value);
      return value;
    }
    const value = compute(text);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(text, value);
    return value;
  };
}
