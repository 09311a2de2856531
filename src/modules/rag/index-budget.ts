/**
 * The memory one process may spend on its in-memory search indexes
 * (`SEARCH_INDEX_MEMORY_MB`), shared by the vector and the keyword index
 * of every knowledge base it searches. A base is loaded only when its
 * estimated size fits; to make room the least recently used bases of
 * either index are dropped (never one being loaded or read right now). A
 * base that does not fit even alone is not loaded at all, and its searches
 * run in the database, as every search does before an index is current.
 */

/** A base's index held under the budget. */
interface Holding {
  bytes: number;
  usedAt: number;
  /** Frees the index (called when the budget evicts it). */
  drop: () => void;
}

/**
 * Estimated bytes per chunk of the in-memory vector index at `dimensions`:
 * the float32 vector (4 bytes a dimension), its int8 copy in the HNSW graph
 * (1 a dimension), the graph's links (16 × 2 on the base layer, 4 bytes
 * each, plus upper layers) and the id maps; about 8 KB at 1536 dimensions,
 * within 10 % of the resident memory measured at 10,000 and 100,000 chunks.
 */
export function vectorBytesPerChunk(dimensions: number): number {
  return 5 * dimensions + 400;
}

/**
 * Estimated bytes a base's in-memory keyword index costs the process: its
 * resident memory grows by about 75 bytes per term occurrence and 200 per
 * chunk while the index is built (the chunks' terms as read, the postings
 * being collected; measured: 1.1 GB at 250,000 chunks of 60 terms), and the
 * heap keeps that room afterwards, although the finished postings are
 * compact (6 bytes per occurrence).
 */
export function keywordBytesOf(chunkCount: number, totalTerms: number): number {
  return 75 * totalTerms + 200 * chunkCount;
}

export function createIndexBudget(options: { limitBytes: number; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  const held = new Map<string, Holding>();
  let used = 0;

  function release(key: string): void {
    const holding = held.get(key);
    if (!holding) return;
    held.delete(key);
    used -= holding.bytes;
  }

  return {
    limitBytes: options.limitBytes,

    /**
     * Reserves `bytes` for `key` (replacing what it held), evicting the
     * least recently used other holdings except those in `busy`; answers
     * false, holding nothing for `key`, when it cannot fit.
     */
    reserve(key: string, bytes: number, drop: () => void, busy: ReadonlySet<string> = new Set()): boolean {
      release(key);
      if (bytes > options.limitBytes) return false;
      const evictable = [...held.entries()]
        .filter(([other]) => !busy.has(other))
        .sort((a, b) => a[1].usedAt - b[1].usedAt);
      while (used + bytes > options.limitBytes) {
        const next = evictable.shift();
        if (!next) return false;
        release(next[0]);
        next[1].drop();
      }
      held.set(key, { bytes, usedAt: now(), drop });
      used += bytes;
      return true;
    },

    /** Marks `key` as just used (searches keep their bases from eviction longest). */
    touch(key: string): void {
      const holding = held.get(key);
      if (holding) holding.usedAt = now();
    },

    /** Frees what `key` holds (its index was dropped for another reason). */
    release,

    /** Bytes reserved now. */
    usedBytes(): number {
      return used;
    },
  };
}

export type IndexBudget = ReturnType<typeof createIndexBudget>;

/**
 * One index's share of the budget (`kind`: its keys' prefix): admits a
 * base's estimated size before it is read, remembering the bases it
 * refused and at which `kb_stats.version`, so a refused base is searched in
 * the database until its chunks change and it is weighed again.
 */
export function budgetShare(
  budget: IndexBudget,
  kind: 'vector' | 'keyword',
  drop: (knowledgeBaseId: string) => void,
) {
  const refused = new Map<string, number | null>();
  const keyOf = (knowledgeBaseId: string) => `${kind}:${knowledgeBaseId}`;
  return {
    /**
     * Reserves `bytes` for the base, evicting the least recently used bases
     * of either index except `busy` ones (being loaded now); false when it
     * cannot fit, and the base is then dropped and remembered as refused.
     */
    admit(knowledgeBaseId: string, bytes: number, version: number | null, busy: Iterable<string>): boolean {
      const busyKeys = new Set([...busy].filter((id) => id !== knowledgeBaseId).map(keyOf));
      const admitted = budget.reserve(keyOf(knowledgeBaseId), bytes, () => drop(knowledgeBaseId), busyKeys);
      if (admitted) refused.delete(knowledgeBaseId);
      else {
        refused.set(knowledgeBaseId, version);
        drop(knowledgeBaseId);
      }
      return admitted;
    },
    /** Whether the base was refused at this version (its searches run in the database). */
    refusedAt(knowledgeBaseId: string, version: number | null): boolean {
      return refused.has(knowledgeBaseId) && refused.get(knowledgeBaseId) === version;
    },
    touch: (knowledgeBaseId: string) => budget.touch(keyOf(knowledgeBaseId)),
    release: (knowledgeBaseId: string) => budget.release(keyOf(knowledgeBaseId)),
  };
}
