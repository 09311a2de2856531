import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import type { Index as AnnIndex } from 'usearch';
import { type DbExecutor, rowsOf } from '../../core/db/client.js';
import { uuidArray } from '../../core/db/sql-helpers.js';
import { IDLE_INDEX_DROP_MS, idleSweep } from './idle-sweep.js';
import { budgetShare, createIndexBudget, type IndexBudget, vectorBytesPerChunk } from './index-budget.js';

/**
 * The vector leg's candidates and every candidate's cosine, from an index
 * kept in the process's memory instead of pgvector's HNSW index. As with the
 * keyword index (keyword-index.ts), PostgreSQL stays the record
 * (`chunks.embedding`); this is a per-process copy of each knowledge base's
 * servable vectors, brought up to date in the background whenever
 * `kb_stats.version` moves, and used only while it is exactly current:
 * until then, or where the native library is missing, the search runs the
 * vector leg in the database as before (rag.repository.ts).
 *
 * Per chunk it holds the vector twice: as float32 (6 KB at 1536
 * dimensions), for exact cosines, and quantised to int8 in usearch's HNSW
 * graph (about 1.6 KB with the links), which proposes the candidates:
 * twice as many as asked for, re-ranked by their exact cosine, so the
 * quantisation does not decide the cut.
 */

type Usearch = typeof import('usearch');

/**
 * usearch is an optional dependency with prebuilt binaries for Linux,
 * macOS and Windows on x64 and arm64; where none loads, this index stays
 * unused and the database serves the vector leg.
 */
export const usearch: Usearch | null = (() => {
  try {
    return createRequire(import.meta.url)('usearch') as Usearch;
  } catch {
    return null;
  }
})();

/** HNSW links per node: pgvector's default `m`. */
const CONNECTIVITY = 16;
/** Candidates explored while inserting: pgvector's default `ef_construction`. */
const EXPANSION_ADD = 64;
/** Vectors read from the database per statement while loading (about 1.5 MB of them). */
export const LOAD_BATCH = 256;

/** One knowledge base's vectors, current with `version` once loaded. */
export interface VectorBase {
  knowledgeBaseId: string;
  /** `kb_stats.version` the index holds every change up to; undefined until the first load ends. */
  version: number | null | undefined;
  dimensions: number;
  ann: AnnIndex | null;
  /** Slot × dimensions: the unit-length float32 vector of each slot. */
  vectors: Float32Array;
  /** Slot → chunk id; null for a slot whose chunk left. */
  ids: Array<string | null>;
  /** Chunk id → its slot and the row version (`xmin`) its vector was read from. */
  slots: Map<string, { slot: number; mark: string }>;
  usedAt: number;
}

/** A candidate proposed by the vector leg. */
export interface VectorCandidate {
  id: string;
  knowledgeBaseId: string;
  /** Cosine similarity clamped to [0, 1], as the SQL query computes it. */
  cosine: number;
}

/** pgvector's binary form (`vector_send`): dimensions (int16), unused (int16), then big-endian float4s. */
export function parseVectorSend(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dimensions = view.getUint16(0);
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = view.getFloat32(4 + 4 * i);
  return vector;
}

/** Scales `vector` to unit length in place (a zero vector stays zero); answers its former length. */
function normalise(vector: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const length = Math.sqrt(sum);
  if (length > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / length;
  return length;
}

/** The unit-length float32 form of a query embedding; null for a zero vector. */
export function queryVector(embedding: readonly number[]): Float32Array | null {
  const vector = Float32Array.from(embedding);
  return normalise(vector) > 0 ? vector : null;
}

/** One matrix reused by every search (this process searches one at a time: no await inside). */
let scratch = new Float32Array(0);

function scratchMatrix(length: number): Float32Array {
  if (scratch.length < length) scratch = new Float32Array(Math.max(length, 2 * scratch.length));
  return scratch.subarray(0, length);
}

/** The clamped cosine of each chunk with `query` (all unit length), by usearch's exact inner-product search. */
function exactCosines(
  chunks: ReadonlyArray<{ id: string; base: VectorBase; slot: number }>,
  query: Float32Array,
): Map<string, number> {
  const cosineOf = new Map<string, number>();
  if (chunks.length === 0 || !usearch) return cosineOf;
  const dimensions = query.length;
  const matrix = scratchMatrix(chunks.length * dimensions);
  for (const [i, { base, slot }] of chunks.entries())
    matrix.set(base.vectors.subarray(slot * dimensions, (slot + 1) * dimensions), i * dimensions);
  const found = usearch.exactSearch(matrix, query, dimensions, chunks.length, usearch.MetricKind.IP, 1);
  const { keys, distances } = found as InstanceType<Usearch['Matches']>;
  // Inner-product distance is 1 − dot; of unit vectors, dot is the cosine.
  for (let i = 0; i < keys.length; i++) cosineOf.set(chunks[Number(keys[i])]!.id, clamp(1 - distances[i]!));
  return cosineOf;
}

/** `greatest(0, least(1, 1 - distance))` of the SQL query: cosine of unit vectors, clamped. */
function clamp(cosine: number): number {
  return Math.max(0, Math.min(1, cosine));
}

function emptyBase(knowledgeBaseId: string, now: number): VectorBase {
  return {
    knowledgeBaseId,
    version: undefined,
    dimensions: 0,
    ann: null,
    vectors: new Float32Array(0),
    ids: [],
    slots: new Map(),
    usedAt: now,
  };
}

/** Appends `vectors` (unit length) under new slots, growing the float32 store by doubling. */
function append(
  base: VectorBase,
  incoming: Array<{ id: string; mark: string; vector: Float32Array }>,
  efSearch: number,
) {
  if (incoming.length === 0 || !usearch) return;
  if (base.dimensions === 0) base.dimensions = incoming[0]!.vector.length;
  const { dimensions } = base;
  // Vectors of another length (columns re-typed, re-embedding under way) cannot share the graph.
  const added = incoming.filter((row) => row.vector.length === dimensions);
  base.ann ??= new usearch.Index({
    dimensions,
    metric: usearch.MetricKind.Cos,
    quantization: usearch.ScalarKind.I8,
    connectivity: CONNECTIVITY,
    expansion_add: EXPANSION_ADD,
    expansion_search: efSearch,
    multi: false,
  });
  const first = base.ids.length;
  const needed = (first + added.length) * dimensions;
  if (base.vectors.length < needed) {
    const grown = new Float32Array(Math.max(needed, base.vectors.length * 2));
    grown.set(base.vectors);
    base.vectors = grown;
  }
  const keys: bigint[] = [];
  const graphed: Float32Array[] = [];
  for (const [i, row] of added.entries()) {
    const slot = first + i;
    base.ids.push(row.id);
    base.slots.set(row.id, { slot, mark: row.mark });
    base.vectors.set(row.vector, slot * dimensions);
    // A zero vector has no direction: never near anything, so it stays out of the graph (cosine 0).
    if (row.vector.some((v) => v !== 0)) {
      keys.push(BigInt(slot));
      graphed.push(row.vector);
    }
  }
  if (keys.length === 0) return;
  const matrix = new Float32Array(keys.length * dimensions);
  for (const [i, vector] of graphed.entries()) matrix.set(vector, i * dimensions);
  base.ann.add(BigUint64Array.from(keys), matrix, 1);
}

function remove(base: VectorBase, id: string): void {
  const held = base.slots.get(id);
  if (!held) return;
  base.slots.delete(id);
  base.ids[held.slot] = null;
  if (base.ann?.contains(BigInt(held.slot))) base.ann.remove(BigInt(held.slot));
}

/**
 * The process's vector indexes, one per knowledge base searched. A base is
 * loaded, and later brought up to date, by one background task at a time:
 * the servable chunks' ids and row versions are read with the base's
 * version in one statement, the vectors of new or changed rows are read
 * {@link LOAD_BATCH} at a time and added, the rows that left are removed;
 * only then does the base count as current with that version.
 */
export function createVectorIndex(options: {
  db: DbExecutor;
  /** HNSW `ef_search` of the graph (default 100, as the SQL leg's). */
  efSearch?: number;
  /** Drop an index unused this long (default {@link IDLE_INDEX_DROP_MS}: about 80 MB at 10,000 chunks). */
  idleDropMs?: number;
  /** The clock idleness is read on (milliseconds). */
  now?: () => number;
  /** The process's memory budget for its indexes (index-budget.ts); unlimited unless given. */
  budget?: IndexBudget;
  /** The dimensions of the stored vectors (EMBEDDING_DIMENSIONS), for the budget's estimate. */
  dimensions?: number;
}) {
  const efSearch = options.efSearch ?? 100;
  const now = options.now ?? (() => performance.now());
  const sweepIdle = idleSweep(options.idleDropMs ?? IDLE_INDEX_DROP_MS, now);
  const budget = options.budget ?? createIndexBudget({ limitBytes: Number.POSITIVE_INFINITY });
  const perChunk = vectorBytesPerChunk(options.dimensions ?? 1536);
  const bases = new Map<string, VectorBase>();
  const updating = new Map<string, Promise<void>>();
  const share = budgetShare(budget, 'vector', (knowledgeBaseId) => bases.delete(knowledgeBaseId));

  /** One pass bringing `base` up to the version read with its rows. */
  async function catchUp(knowledgeBaseId: string, base: VectorBase): Promise<void> {
    const rows = rowsOf<{ version: string | number | null; id: string | null; mark: string | null }>(
      await options.db.execute(sql`
        SELECT v.version, c.id, c.xmin::text AS mark
        FROM (SELECT (SELECT version FROM kb_stats WHERE knowledge_base_id = ${knowledgeBaseId}) AS version) AS v
        LEFT JOIN chunks c ON c.knowledge_base_id = ${knowledgeBaseId} AND c.embedding IS NOT NULL AND NOT c.held_back`),
    );
    const version = rows[0]?.version == null ? null : Number(rows[0].version);
    const wanted = new Map<string, string>();
    for (const row of rows) if (row.id !== null) wanted.set(row.id, row.mark ?? '');
    if (!share.admit(knowledgeBaseId, wanted.size * perChunk, version, updating.keys())) return;
    // Ids whose row changed are read again, then replace the held vector.
    const missing = [...wanted.keys()].filter((id) => base.slots.get(id)?.mark !== wanted.get(id));
    // A loaded base may serve searches of its version while this pass reads: its changes are applied
    // together at the end, so no search sees a chunk between its removal and its new vector. A first
    // load serves nothing yet and adds batch by batch (each add blocks the event loop for a moment).
    const first = base.version === undefined;
    const pending: Array<{ id: string; mark: string; vector: Float32Array }> = [];
    for (let at = 0; at < missing.length; at += LOAD_BATCH) {
      const batch = missing.slice(at, at + LOAD_BATCH);
      const read = rowsOf<{ id: string; mark: string; bytes: Uint8Array }>(
        await options.db.execute(sql`
          SELECT id, xmin::text AS mark, vector_send(embedding) AS bytes FROM chunks
          WHERE id = ANY(${uuidArray(batch)}) AND knowledge_base_id = ${knowledgeBaseId}
            AND embedding IS NOT NULL AND NOT held_back`),
      );
      for (const row of read) {
        const vector = parseVectorSend(row.bytes);
        normalise(vector);
        pending.push({ id: row.id, mark: row.mark, vector });
      }
      if (first) append(base, pending.splice(0), efSearch);
    }
    for (const [id, held] of [...base.slots]) if (wanted.get(id) !== held.mark) remove(base, id);
    append(base, pending, efSearch);
    // Rows written after the first statement moved the version past `version`: the next pass takes them.
    base.version = version;
  }

  /** Starts (or joins) the pass of a base; a failed pass is left to the next search, which starts another. */
  function update(knowledgeBaseId: string): Promise<void> {
    const running = updating.get(knowledgeBaseId);
    if (running) return running;
    let base = bases.get(knowledgeBaseId);
    // Slots are never reused: once most are dead (chunks replaced over and over), load afresh.
    if (!base || base.ids.length > 2 * base.slots.size + LOAD_BATCH) {
      base = emptyBase(knowledgeBaseId, now());
      bases.set(knowledgeBaseId, base);
    }
    const pass: Promise<void> = catchUp(knowledgeBaseId, base).finally(() =>
      updating.delete(knowledgeBaseId),
    );
    updating.set(knowledgeBaseId, pass);
    return pass;
  }

  return {
    /** False where usearch did not load: every search then uses the database's vector leg. */
    available: usearch !== null,

    /**
     * The bases' indexes when every one is current with the version the
     * caller read (`versions`, a base without a `kb_stats` row absent) and
     * holds vectors of `dimensions`; otherwise null, and a background pass
     * brings each stale base up to date for later searches.
     */
    current(versions: ReadonlyMap<string, number>, knowledgeBaseIds: readonly string[], dimensions: number) {
      if (!usearch) return null;
      // A base a pass is loading stays: the pass would otherwise fill a base nobody holds.
      sweepIdle(
        bases,
        (id) => updating.has(id),
        (id) => share.release(id),
      );
      const found: VectorBase[] = [];
      let ready = true;
      for (const id of knowledgeBaseIds) {
        const version = versions.get(id) ?? null;
        // Refused by the budget at this version: the database serves it until the base changes.
        if (share.refusedAt(id, version)) {
          ready = false;
          continue;
        }
        const base = bases.get(id);
        if (base) {
          base.usedAt = now();
          share.touch(id);
        }
        if (!base || base.version !== version) {
          update(id).catch(() => undefined);
          ready = false;
        } else if (base.dimensions !== 0 && base.dimensions !== dimensions) ready = false;
        else found.push(base);
      }
      return ready ? found : null;
    },

    /**
     * The vector leg over the bases: the `n` chunks nearest to `query`
     * (unit length) by exact cosine, best first (ties by id), proposed by
     * each base's graph ({@link VectorBase}), twice as many as asked for;
     * and the clamped cosine of every chunk of `alsoScore` too (0 for one
     * without a vector here). Cosines are computed once, by usearch's exact
     * (SIMD) search over the float32 vectors of the chunks concerned.
     */
    search(
      found: readonly VectorBase[],
      query: Float32Array,
      n: number,
      alsoScore: readonly string[],
    ): { nearest: VectorCandidate[]; cosineOf: Map<string, number> } {
      const proposed: Array<{ id: string; base: VectorBase; slot: number }> = [];
      const seen = new Set<string>();
      for (const base of found) {
        if (!base.ann || base.ann.size() === 0) continue;
        const matches = base.ann.search(query, Math.min(2 * n, base.ann.size()), 1);
        for (const key of matches.keys) {
          const slot = Number(key);
          const id = base.ids[slot];
          if (id && !seen.has(id)) {
            seen.add(id);
            proposed.push({ id, base, slot });
          }
        }
      }
      const scored = [...proposed];
      for (const id of alsoScore) {
        if (seen.has(id)) continue;
        seen.add(id);
        for (const base of found) {
          const held = base.slots.get(id);
          if (held) {
            scored.push({ id, base, slot: held.slot });
            break;
          }
        }
      }
      const cosineOf = exactCosines(scored, query);
      const nearest = proposed
        .map(({ id, base }) => ({ id, knowledgeBaseId: base.knowledgeBaseId, cosine: cosineOf.get(id) ?? 0 }))
        .sort((a, b) => b.cosine - a.cosine || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, n);
      for (const id of alsoScore) if (!cosineOf.has(id)) cosineOf.set(id, 0);
      return { nearest, cosineOf };
    },

    /**
     * Brings the bases up to date now (the service and the benchmarks call
     * it before searches that should not wait on the database's leg).
     * @throws when a read fails.
     */
    async warm(knowledgeBaseIds: readonly string[]): Promise<void> {
      if (!usearch) return;
      for (const id of knowledgeBaseIds) {
        // A pass already running may have read an older version: run another after it.
        await updating.get(id)?.catch(() => undefined);
        await update(id);
      }
    },

    /** The knowledge bases whose vectors this process holds, with the version each is current with. */
    heldBases(): Map<string, number | null | undefined> {
      return new Map([...bases].map(([id, base]) => [id, base.version]));
    },
  };
}

export type VectorIndex = ReturnType<typeof createVectorIndex>;
