import { sql } from 'drizzle-orm';
import { type DbExecutor, rowsOf } from '../../core/db/client.js';
import { BM25_B, BM25_K1, type KeywordWeights } from './bm25.js';
import { IDLE_INDEX_DROP_MS, idleSweep } from './idle-sweep.js';
import { budgetShare, createIndexBudget, type IndexBudget, keywordBytesOf } from './index-budget.js';

/**
 * The keyword leg's candidates, proposed from an inverted index kept in the
 * process's memory instead of the GIN index: PostgreSQL stays the record
 * (`chunks.terms`, written by ingestion), this is a per-process copy of it,
 * reloaded whenever `kb_stats.version` says the base's chunks changed.
 *
 * In memory the whole leg is cheap enough to be exhaustive: every chunk
 * that holds a query term is scored, where the SQL leg could only afford a
 * bounded sample of the GIN index. The SQL query still scores the union of
 * both legs (modules/rag/rag.repository.ts); this only says which chunks
 * the keyword leg proposes.
 */

/** One knowledge base's inverted index, as of `version`. */
export interface KeywordBase {
  readonly knowledgeBaseId: string;
  /** `kb_stats.version` the chunks were read with; null when the base had no row (nothing indexed). */
  readonly version: number | null;
  /** Chunk ids, ascending (the SQL leg's tie-break order). */
  readonly ids: readonly string[];
  /** BM25 document length of each chunk (`term_count`). */
  readonly lengths: Int32Array;
  /** 1 when the chunk may be proposed (not held back); held-back chunks still count in the statistics. */
  readonly servable: Uint8Array;
  /** term → the chunks holding it (indexes into `ids`, ascending) and its frequency in each. */
  readonly postings: ReadonlyMap<string, { chunks: Int32Array; tfs: Uint16Array }>;
  /** Indexed chunks (N) and their lengths in all, held-back ones included, as `kb_stats` counts them. */
  readonly chunkCount: number;
  readonly totalTerms: number;
}

/** One row of a base's chunks as loaded. */
export interface KeywordChunkRow {
  id: string;
  termCount: number;
  heldBack: boolean;
  /** `chunks.terms` in PostgreSQL's text form: `'term':1,4 'other':2`. */
  terms: string;
}

/**
 * Parses a tsvector's text form into (lexeme, tf) pairs, tf being the number
 * of positions (1 for a lexeme stored without any), as the SQL leg counts it.
 */
export function parseTsvector(text: string): Array<[string, number]> {
  const entries: Array<[string, number]> = [];
  let i = text.indexOf("'");
  while (i !== -1 && i < text.length) {
    // A quoted lexeme; a quote inside is doubled, a backslash escapes the next character. The
    // analysed terms are letters and digits, so the plain case is one slice.
    let end = text.indexOf("'", i + 1);
    let lexeme = text.slice(i + 1, end === -1 ? text.length : end);
    if (text[end + 1] === "'" || lexeme.includes('\\')) ({ lexeme, end } = quotedLexeme(text, i + 1));
    i = end + 1;
    let tf = 1;
    if (text[i] === ':') {
      const stop = text.indexOf(' ', i);
      const positionsEnd = stop === -1 ? text.length : stop;
      tf = 1;
      for (let c = i + 1; c < positionsEnd; c++) if (text.charCodeAt(c) === 44 /* , */) tf++;
      i = positionsEnd;
    }
    entries.push([lexeme, tf]);
    i = text.indexOf("'", i);
  }
  return entries;
}

/** Reads a lexeme with escapes from `start` (after its opening quote); `end` is its closing quote. */
function quotedLexeme(text: string, start: number): { lexeme: string; end: number } {
  let lexeme = '';
  let i = start;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'" && text[i + 1] === "'") {
      lexeme += "'";
      i += 2;
    } else if (ch === "'") {
      return { lexeme, end: i };
    } else if (ch === '\\') {
      lexeme += text[i + 1] ?? '';
      i += 2;
    } else {
      lexeme += ch;
      i++;
    }
  }
  return { lexeme, end: text.length };
}

/** Builds a base's index from its keyword-indexed chunks (any order). */
export function buildKeywordBase(
  knowledgeBaseId: string,
  version: number | null,
  rows: readonly KeywordChunkRow[],
): KeywordBase {
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const lengths = new Int32Array(sorted.length);
  const servable = new Uint8Array(sorted.length);
  const building = new Map<string, { chunks: number[]; tfs: number[] }>();
  let totalTerms = 0;
  for (const [index, row] of sorted.entries()) {
    lengths[index] = row.termCount;
    servable[index] = row.heldBack ? 0 : 1;
    totalTerms += row.termCount;
    for (const [term, tf] of parseTsvector(row.terms)) {
      let posting = building.get(term);
      if (!posting) {
        posting = { chunks: [], tfs: [] };
        building.set(term, posting);
      }
      posting.chunks.push(index);
      posting.tfs.push(tf);
    }
  }
  // A tsvector keeps at most 256 positions per lexeme, so a term frequency fits 16 bits.
  const postings = new Map<string, { chunks: Int32Array; tfs: Uint16Array }>();
  for (const [term, posting] of building)
    postings.set(term, { chunks: Int32Array.from(posting.chunks), tfs: Uint16Array.from(posting.tfs) });
  return {
    knowledgeBaseId,
    version,
    ids: sorted.map((row) => row.id),
    lengths,
    servable,
    postings,
    chunkCount: sorted.length,
    totalTerms,
  };
}

/** Okapi BM25's idf, as the SQL query computes it (modules/rag/bm25.ts). */
function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

interface Scored {
  id: string;
  score: number;
  /** The base that holds the chunk. */
  knowledgeBaseId: string;
}

/** Better first: higher BM25, then the smaller id (the SQL leg's `ORDER BY bm25 DESC, id`). */
function better(a: Scored, b: Scored): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}

/** {@link KeywordWeights} of distinct analysed `terms` over `bases`. */
export function keywordWeights(bases: readonly KeywordBase[], terms: readonly string[]): KeywordWeights {
  let chunkCount = 0;
  let totalTerms = 0;
  for (const base of bases) {
    chunkCount += base.chunkCount;
    totalTerms += base.totalTerms;
  }
  const held: Array<{ term: string; idf: number }> = [];
  let reference = 0;
  for (const term of terms) {
    let df = 0;
    for (const base of bases) df += base.postings.get(term)?.chunks.length ?? 0;
    const termIdf = idf(chunkCount, df);
    reference += termIdf;
    if (df > 0) held.push({ term, idf: termIdf });
  }
  held.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  return {
    terms: held.map((t) => t.term),
    idfs: held.map((t) => t.idf),
    chunkCount,
    avgdl: chunkCount > 0 ? totalTerms / chunkCount : 1,
    reference,
  };
}

/**
 * The keyword leg over `bases` searched together: Okapi BM25 (k1 1.2, b
 * 0.75) of every servable chunk holding one of the weighted terms, with the
 * statistics of {@link keywordWeights} (computed when not given), best `n`
 * first (ties by id). `terms` are distinct analysed query terms.
 */
export function keywordCandidates(
  bases: readonly KeywordBase[],
  terms: readonly string[],
  n: number,
  weights: KeywordWeights = keywordWeights(bases, terms),
): Scored[] {
  const { avgdl } = weights;
  const weighted = weights.terms.map((term, i) => ({ term, idf: weights.idfs[i]! }));
  const best: Scored[] = [];
  if (weighted.length === 0 || n <= 0) return best;
  for (const base of bases) {
    // One score slot per chunk and the list of chunks touched: common terms have long postings. The
    // slots are the base's own, reused by every search (this loop never yields) and zeroed again below.
    const scores = scratchOf(base);
    const touched: number[] = [];
    for (const { term, idf: termIdf } of weighted) {
      const posting = base.postings.get(term);
      if (!posting) continue;
      for (let p = 0; p < posting.chunks.length; p++) {
        const chunk = posting.chunks[p]!;
        if (base.servable[chunk] === 0) continue;
        const tf = posting.tfs[p]!;
        const norm = 1 - BM25_B + (BM25_B * base.lengths[chunk]!) / avgdl;
        const sofar = scores[chunk]!;
        if (sofar === 0) touched.push(chunk);
        scores[chunk] = sofar + (termIdf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm);
      }
    }
    // A search touches thousands of chunks (3,400 on average in bench:pipeline) and keeps n: a chunk
    // that cannot beat the n-th kept one is passed over before anything is allocated for it.
    for (const chunk of touched) {
      const score = scores[chunk]!;
      scores[chunk] = 0;
      const last = best.length >= n ? best[best.length - 1]! : null;
      if (last && (score < last.score || (score === last.score && base.ids[chunk]! >= last.id))) continue;
      keepBest(best, { id: base.ids[chunk]!, score, knowledgeBaseId: base.knowledgeBaseId }, n);
    }
  }
  return best;
}

/** Each base's chunk positions by id, built on the first {@link bm25Scores} of the base. */
const positions = new WeakMap<KeywordBase, Map<string, number>>();

function positionOf(base: KeywordBase, id: string): number | undefined {
  let byId = positions.get(base);
  if (!byId) {
    byId = new Map(base.ids.map((chunkId, index) => [chunkId, index]));
    positions.set(base, byId);
  }
  return byId.get(id);
}

/** The first index of `value` in an ascending array, or -1. */
function binarySearch(values: Int32Array, value: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = values[middle]!;
    if (at === value) return middle;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * Okapi BM25 of each chunk id over `bases` with `weights`, as
 * {@link keywordCandidates} scores a candidate and the SQL query scores a
 * row (0 for a chunk that holds no weighted term or that no base holds).
 */
export function bm25Scores(
  bases: readonly KeywordBase[],
  weights: KeywordWeights,
  ids: readonly string[],
): number[] {
  // Each base's posting of each weighted term, looked up once for all the ids (undefined: not held).
  const postings = bases.map((base) => weights.terms.map((term) => base.postings.get(term)));
  return ids.map((id) => {
    for (const [b, base] of bases.entries()) {
      const chunk = positionOf(base, id);
      if (chunk === undefined) continue;
      const norm = 1 - BM25_B + (BM25_B * base.lengths[chunk]!) / weights.avgdl;
      const held = postings[b]!;
      let score = 0;
      for (let i = 0; i < held.length; i++) {
        const posting = held[i];
        const at = posting ? binarySearch(posting.chunks, chunk) : -1;
        if (at === -1) continue;
        const tf = posting!.tfs[at]!;
        score += (weights.idfs[i]! * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * norm);
      }
      return score;
    }
    return 0;
  });
}

/** Each base's score slots, kept between searches instead of allocated per search. */
const scratch = new WeakMap<KeywordBase, Float64Array>();

function scratchOf(base: KeywordBase): Float64Array {
  let slots = scratch.get(base);
  if (!slots) {
    slots = new Float64Array(base.chunkCount);
    scratch.set(base, slots);
  }
  return slots;
}

/** Inserts `item` into `best` (sorted, better first) when it ranks among the first `n`. */
function keepBest(best: Scored[], item: Scored, n: number): void {
  if (best.length >= n && !better(item, best[best.length - 1]!)) return;
  let at = best.length;
  while (at > 0 && better(item, best[at - 1]!)) at--;
  best.splice(at, 0, item);
  if (best.length > n) best.pop();
}

/** Reads one base's keyword-indexed chunks and its version in one statement (one snapshot). */
async function loadBase(tx: DbExecutor, knowledgeBaseId: string): Promise<KeywordBase> {
  const rows = rowsOf<{
    version: string | number | null;
    id: string | null;
    termCount: number;
    heldBack: boolean;
    terms: string;
  }>(
    await tx.execute(sql`
      SELECT v.version, c.id, c.term_count AS "termCount", c.held_back AS "heldBack", c.terms::text AS terms
      FROM (SELECT (SELECT version FROM kb_stats WHERE knowledge_base_id = ${knowledgeBaseId}) AS version) AS v
      LEFT JOIN chunks c ON c.knowledge_base_id = ${knowledgeBaseId} AND c.terms IS NOT NULL`),
  );
  const version = rows[0]?.version == null ? null : Number(rows[0].version);
  const chunks = rows.filter((row): row is KeywordChunkRow & { version: never } => row.id !== null);
  return buildKeywordBase(knowledgeBaseId, version, chunks);
}

/**
 * A base that took longer than this to load is not waited for again: while
 * it reloads, searches use the version they have (see {@link createKeywordIndex}).
 */
export const BLOCKING_RELOAD_MAX_MS = 1000;

/**
 * The process's keyword indexes, one per knowledge base searched, each
 * reloaded when its `kb_stats.version` moved; concurrent searches of a stale
 * base share one reload.
 *
 * A small base (its last load took at most `blockingReloadMaxMs`, some
 * tens of thousands of chunks) is reloaded before the search, so the
 * search sees every chunk committed before it began. A larger one would
 * stall every search after each ingestion batch for seconds (2.4 s at
 * 100,000 chunks, measured), so it is searched as last loaded while it reloads in the
 * background: its newest chunks reach the keyword leg a reload later (the
 * vector leg finds them at once). That is safe: the query checks every
 * candidate against the table, so a deleted or held-back chunk is never
 * answered, whatever an older index proposes.
 */
export function createKeywordIndex(options: {
  db: DbExecutor;
  blockingReloadMaxMs?: number;
  /** Drop an index unused this long (default {@link IDLE_INDEX_DROP_MS}). */
  idleDropMs?: number;
  /** The clock idleness is read on (milliseconds). */
  now?: () => number;
  /** The process's memory budget for its indexes (index-budget.ts); unlimited unless given. */
  budget?: IndexBudget;
}) {
  const blockingReloadMaxMs = options.blockingReloadMaxMs ?? BLOCKING_RELOAD_MAX_MS;
  const now = options.now ?? (() => performance.now());
  const sweepIdle = idleSweep(options.idleDropMs ?? IDLE_INDEX_DROP_MS, now);
  const budget = options.budget ?? createIndexBudget({ limitBytes: Number.POSITIVE_INFINITY });
  const bases = new Map<string, { base: KeywordBase; loadMs: number; usedAt: number }>();
  const loading = new Map<string, Promise<KeywordBase>>();
  const share = budgetShare(budget, 'keyword', (knowledgeBaseId) => bases.delete(knowledgeBaseId));

  /**
   * Reserves the base's estimated size (from its kb_stats counts) before it
   * is read; false (and the base is not held) when the budget cannot make room.
   */
  async function admit(tx: DbExecutor, knowledgeBaseId: string, version: number | null): Promise<boolean> {
    const [stats] = rowsOf<{ chunks: number | string | null; terms: number | string | null }>(
      await tx.execute(sql`SELECT chunk_count AS chunks, total_terms AS terms FROM kb_stats
        WHERE knowledge_base_id = ${knowledgeBaseId}`),
    );
    const bytes = keywordBytesOf(Number(stats?.chunks ?? 0), Number(stats?.terms ?? 0));
    return share.admit(knowledgeBaseId, bytes, version, loading.keys());
  }

  function keep(knowledgeBaseId: string, base: KeywordBase, loadMs: number): void {
    const held = bases.get(knowledgeBaseId);
    if (!held || (held.base.version ?? -1) <= (base.version ?? -1))
      bases.set(knowledgeBaseId, { base, loadMs, usedAt: now() });
  }

  function load(tx: DbExecutor, knowledgeBaseId: string): Promise<KeywordBase> {
    const started = performance.now();
    const pending: Promise<KeywordBase> = loadBase(tx, knowledgeBaseId)
      .then((base) => {
        keep(knowledgeBaseId, base, performance.now() - started);
        return base;
      })
      .finally(() => {
        if (loading.get(knowledgeBaseId) === pending) loading.delete(knowledgeBaseId);
      });
    loading.set(knowledgeBaseId, pending);
    return pending;
  }

  async function current(
    tx: DbExecutor,
    knowledgeBaseId: string,
    version: number | null,
  ): Promise<KeywordBase | null> {
    if (share.refusedAt(knowledgeBaseId, version)) return null;
    const held = bases.get(knowledgeBaseId);
    if (held) {
      held.usedAt = now();
      share.touch(knowledgeBaseId);
    }
    if (held && held.base.version === version) return held.base;
    if (held && held.loadMs > blockingReloadMaxMs) {
      // Outside the caller's transaction, which ends with this search. A failed reload is left to
      // the next search, which starts another.
      if (!loading.has(knowledgeBaseId)) load(options.db, knowledgeBaseId).catch(() => undefined);
      return held.base;
    }
    if (!loading.has(knowledgeBaseId) && !(await admit(tx, knowledgeBaseId, version))) return null;
    let loaded = await (loading.get(knowledgeBaseId) ?? load(tx, knowledgeBaseId));
    // A load started before this caller read its version may be older than that version.
    if ((loaded.version ?? -1) < (version ?? -1)) loaded = await load(tx, knowledgeBaseId);
    return loaded;
  }

  return {
    /**
     * The best `n` keyword candidates of `terms` over the given bases, whose
     * current versions the caller read (`versions`, a base without a
     * `kb_stats` row absent), and the query's BM25 statistics they were
     * scored with, the bases searched and whether each was current with its
     * version. A base whose index is older is reloaded through `tx` first
     * (or, while a slow base reloads, its previous version is used). Null
     * when the memory budget cannot hold one of the bases: the caller then
     * computes the keyword leg in the database.
     */
    async candidates(
      tx: DbExecutor,
      versions: ReadonlyMap<string, number>,
      knowledgeBaseIds: readonly string[],
      terms: readonly string[],
      n: number,
    ): Promise<{
      proposed: Scored[];
      weights: KeywordWeights;
      bases: KeywordBase[];
      current: boolean;
    } | null> {
      sweepIdle(bases, undefined, (id) => share.release(id));
      const searched: KeywordBase[] = [];
      for (const id of knowledgeBaseIds) {
        const base = await current(tx, id, versions.get(id) ?? null);
        if (!base) return null;
        searched.push(base);
      }
      const weights = keywordWeights(searched, terms);
      return {
        proposed: keywordCandidates(searched, terms, n, weights),
        weights,
        bases: searched,
        // False while a large base is searched as last loaded: its statistics may lag the table's.
        current: searched.every((base) => base.version === (versions.get(base.knowledgeBaseId) ?? null)),
      };
    },

    /** The knowledge bases whose index this process holds. */
    heldBases(): string[] {
      return [...bases.keys()];
    },
  };
}

export type KeywordIndex = ReturnType<typeof createKeywordIndex>;
