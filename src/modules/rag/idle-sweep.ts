/**
 * A per-process index of a knowledge base not searched for this long is
 * dropped (a deleted base, or one nobody asks about, would otherwise hold
 * its memory until a restart); the next search of it loads it again.
 */
export const IDLE_INDEX_DROP_MS = 60 * 60 * 1000;

/**
 * The sweep of the in-memory indexes (keyword-index.ts, vector-index.ts):
 * drops the entries of `entries` unused for `idleMs` (and not `busy`),
 * looking at most once per tenth of that period; `dropped` is told of each
 * (the memory budget frees what it held).
 */
export function idleSweep(idleMs: number, now: () => number) {
  let sweptAt = now();
  return <K, V extends { usedAt: number }>(
    entries: Map<K, V>,
    busy: (key: K) => boolean = () => false,
    dropped: (key: K) => void = () => undefined,
  ): void => {
    const at = now();
    if (at - sweptAt < idleMs / 10) return;
    sweptAt = at;
    for (const [key, entry] of entries) {
      if (at - entry.usedAt <= idleMs || busy(key)) continue;
      entries.delete(key);
      dropped(key);
    }
  };
}
