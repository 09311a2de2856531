import { asc, eq, type SQL, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../../core/db/client.js';
import { knowledgeBases } from '../../core/db/schema/index.js';
import { uuidArray } from '../../core/db/sql-helpers.js';
import {
  iterativeScanSupport,
  setLocalExpressions,
  setLocalSettings,
  vectorLiteral,
} from '../../core/db/vector.js';
import {
  bm25Reference,
  bm25ReferenceOf,
  bm25Score,
  exhaustiveBm25Leg,
  type KeywordWeights,
  keywordStatsCtes,
  keywordWeightCtes,
} from './bm25.js';
import {
  type HybridQuery,
  type HybridRow,
  rankRows,
  type ShortlistedChunk,
  scoreCandidate,
  shortlistOf,
} from './hybrid-search.js';
import { createIndexBudget } from './index-budget.js';
import { createKeywordIndex } from './keyword-index.js';
import { createMemorySearch, TRIGRAM_TEXT_MAX } from './memory-search.js';
import { createVectorIndex } from './vector-index.js';

export type { HybridQuery, HybridRow } from './hybrid-search.js';

/**
 * The hybrid search's candidate statement (steps 1 to 3 of the SQL path):
 *
 * 1. vector leg: `ORDER BY embedding <=> $q LIMIT N` over the allowed
 *    knowledge bases, served by the HNSW index `chunks_embedding_idx`;
 * 2. keyword leg: the best N chunks by Okapi BM25 over their analysed
 *    `terms`, given as `keywordCandidates` (the service's in-memory index
 *    proposes them, keyword-index.ts) or, without them, computed here over
 *    the GIN index `chunks_terms_idx` (the reference, see
 *    {@link exhaustiveBm25Leg}); the BM25 statistics (N, df, average
 *    length) come with the proposed candidates as `keywordWeights`, the
 *    in-memory index's counts of the same rows, or are read here from
 *    `kb_stats` and `kb_term_stats`;
 * 3. the union of both, each candidate answered with its raw figures: 1 −
 *    cosine distance, raw BM25, the query's BM25 reference (the BM25 of a
 *    chunk of average length holding every query term once: Σ idf over all
 *    query terms, those no chunk holds at df 0, see {@link bm25Reference})
 *    and its base's `ragWeights` as stored.
 *
 * The scoring and the ranking are the same TypeScript for both paths
 * (hybrid-search.ts): {@link scoreCandidate} scores the raw figures, the
 * fusion picks the `shortlist` ({@link shortlistOf}), a second
 * statement ({@link shortlistRowsQuery}) reads those chunks with pg_trgm's
 * word similarity, and {@link rankRows} scores and orders them.
 *
 * Held-back chunks (flagged at ingestion) are never candidates. Kept
 * PostgreSQL 15 compatible. Scope: only `knowledgeBaseIds` (and, when given,
 * `departmentIds`) are ever read.
 */
export function hybridSearchQuery(
  query: HybridQuery & {
    keywordCandidates?: readonly string[];
    keywordWeights?: KeywordWeights;
  },
): SQL {
  const kbIds = uuidArray(query.knowledgeBaseIds);
  const n = Math.max(1, Math.floor(query.candidates));
  const vector = query.embedding ? vectorLiteral(query.embedding) : null;
  const terms = query.terms;

  const legs: SQL[] = [];
  if (vector) {
    legs.push(sql`(SELECT c.id FROM chunks c
      WHERE c.knowledge_base_id = ANY(${kbIds}) AND c.embedding IS NOT NULL AND NOT c.held_back
      ORDER BY c.embedding <=> ${vector}::vector LIMIT ${n})`);
  }
  if (query.keywordCandidates) {
    if (query.keywordCandidates.length > 0)
      legs.push(sql`(SELECT unnest(${uuidArray(query.keywordCandidates)}) AS id)`);
  } else if (terms.length > 0) legs.push(exhaustiveBm25Leg(kbIds, n));
  if (legs.length === 0) legs.push(sql`(SELECT NULL::uuid AS id WHERE false)`);

  const cosine = vector ? sql`1 - (c.embedding <=> ${vector}::vector)` : sql`NULL::float8`;
  const bm25 = terms.length > 0 ? bm25Score() : sql`0::float8`;
  const departmentFence = query.departmentIds
    ? sql`AND kb.department_id = ANY(${uuidArray(query.departmentIds)})`
    : sql``;

  // The statistics of the in-memory index that proposed the candidates, else read here.
  const weights = query.keywordWeights;
  const stats = weights ? keywordWeightCtes(weights) : keywordStatsCtes(terms, kbIds);
  const reference = weights ? bm25ReferenceOf(weights) : bm25Reference();
  return sql`WITH ${stats},
    candidates AS (${sql.join(legs, sql` UNION `)}),
    scored AS (
      SELECT c.id AS "chunkId", c.knowledge_base_id AS "knowledgeBaseId", kb.department_id AS "departmentId",
        ${cosine} AS cosine,
        ${bm25} AS bm25,
        kb.rag_weights AS "ragWeights"
      FROM candidates
      JOIN chunks c ON c.id = candidates.id
      JOIN knowledge_bases kb ON kb.id = c.knowledge_base_id
      WHERE c.knowledge_base_id = ANY(${kbIds}) AND NOT c.held_back ${departmentFence}
    )
    SELECT "chunkId", "knowledgeBaseId", "departmentId", cosine, bm25,
      coalesce(${reference}, 0)::float8 AS reference, "ragWeights"
    FROM scored
    ORDER BY "chunkId"`;
}

/**
 * The shortlisted chunks' rows (step 4 of the SQL path), with pg_trgm's
 * `word_similarity(message, content)`: the message's first
 * {@link TRIGRAM_TEXT_MAX} characters, as a float8 of the float4 pg_trgm
 * answers. Only chunks of the searched bases, not held back.
 */
export function shortlistRowsQuery(
  ids: readonly string[],
  knowledgeBaseIds: readonly string[],
  text: string,
): SQL {
  return sql`SELECT c.id AS "chunkId", c.document_id AS "documentId", d.title, c.content,
      c.chunk_index AS "chunkIndex", c.metadata->'headingPath' AS "headingPath", c.scanned_by AS "scannedBy",
      word_similarity(${text.slice(0, TRIGRAM_TEXT_MAX)}, c.content)::float8 AS trigram
    FROM unnest(${uuidArray(ids)}) AS shortlisted(id)
    JOIN chunks c ON c.id = shortlisted.id
    JOIN documents d ON d.id = c.document_id
    WHERE c.knowledge_base_id = ANY(${uuidArray(knowledgeBaseIds)}) AND NOT c.held_back`;
}

/**
 * The SQL path of a hybrid search inside a transaction whose search
 * settings are applied: the candidate statement, the fusion's shortlist,
 * the shortlist's rows, ranked (hybrid-search.ts).
 */
export async function searchInDatabase(
  tx: DbExecutor,
  query: HybridQuery & { keywordCandidates?: readonly string[]; keywordWeights?: KeywordWeights },
): Promise<HybridRow[]> {
  const candidates = rowsOf<{
    chunkId: string;
    knowledgeBaseId: string;
    departmentId: string;
    cosine: number | string | null;
    bm25: number | string;
    reference: number | string;
    ragWeights: unknown;
  }>(await tx.execute(hybridSearchQuery(query))).map((row) =>
    scoreCandidate({
      id: row.chunkId,
      knowledgeBaseId: row.knowledgeBaseId,
      departmentId: row.departmentId,
      cosine: row.cosine === null ? null : Number(row.cosine),
      bm25: Number(row.bm25),
      reference: Number(row.reference),
      ragWeights: row.ragWeights,
    }),
  );
  const shortlist = shortlistOf(candidates, query.shortlist);
  if (shortlist.length === 0) return [];
  const read = rowsOf<ShortlistedChunk & { chunkId: string }>(
    await tx.execute(
      shortlistRowsQuery(
        shortlist.map((c) => c.id),
        query.knowledgeBaseIds,
        query.text,
      ),
    ),
  );
  const chunks = new Map(
    read.map(({ chunkId, ...chunk }) => [
      chunkId,
      { ...chunk, chunkIndex: Number(chunk.chunkIndex), trigram: Number(chunk.trigram) },
    ]),
  );
  return rankRows(shortlist, chunks);
}

/**
 * The planner prices a vector distance like any operator (0.0025), but each
 * one detoasts a 6 KB vector: about 14 µs, measured. Priced that low, an
 * exact scan and sort of tens of thousands of rows looks cheaper than the
 * HNSW index and runs 10 to 50 times slower. At 0.1 (for this query only)
 * the planner takes the index for large knowledge-base sets and keeps the
 * exact scan for small ones (a few hundred rows), where it is also faster.
 */
export const DISTANCE_AWARE_CPU_OPERATOR_COST = '0.1';

/** Query settings that apply to one transaction (`SET LOCAL`), through `set_config`. */
export async function setLocal(tx: DbExecutor, name: string, value: string): Promise<void> {
  await tx.execute(sql`SELECT set_config(${name}, ${value}, true)`);
}

/** The `SET LOCAL` settings of a hybrid query (see {@link prepareSearch}). */
function searchSettings(settings: { efSearch: number; candidates: number; iterativeScan: boolean }) {
  const values: Array<[string, string]> = [
    ['hnsw.ef_search', String(Math.max(settings.efSearch, settings.candidates))],
    ['cpu_operator_cost', DISTANCE_AWARE_CPU_OPERATOR_COST],
    ['max_parallel_workers_per_gather', '0'],
    ['plan_cache_mode', 'force_custom_plan'],
  ];
  if (settings.iterativeScan) values.push(['hnsw.iterative_scan', 'strict_order']);
  return values;
}

/**
 * The `SET LOCAL` settings of a hybrid query, inside its transaction:
 * - `hnsw.ef_search` (at least N, or the vector leg returns fewer rows);
 * - `hnsw.iterative_scan = strict_order` where pgvector has it (0.8 and
 *   newer), so the knowledge-base filter cannot starve the vector leg; the
 *   strict order keeps `LIMIT N` on the nearest rows found (`relaxed_order`
 *   may answer slightly out of order);
 * - `cpu_operator_cost` at {@link DISTANCE_AWARE_CPU_OPERATOR_COST};
 * - `max_parallel_workers_per_gather = 0`: the scans are small, and starting
 *   workers cost more than they saved (13 ms against 11 ms at 100k chunks),
 *   while taking cores from concurrent queries;
 * - `plan_cache_mode = force_custom_plan`: a prepared statement's generic
 *   plan would ignore the settings above and the searched bases' sizes
 *   (both drivers prepare their statements, see statement-names.ts).
 */
export async function applySearchSettings(
  tx: DbExecutor,
  settings: { efSearch: number; candidates: number; iterativeScan: boolean },
): Promise<void> {
  await setLocalSettings(tx, searchSettings(settings));
}

/**
 * {@link applySearchSettings} and, in the same round trip, the searched
 * bases' keyword versions (`kb_stats.version`; a base without a row is
 * absent): what the in-memory keyword index must be current with.
 */
async function prepareSearch(
  tx: DbExecutor,
  settings: { efSearch: number; candidates: number; iterativeScan: boolean },
  knowledgeBaseIds: readonly string[],
): Promise<Map<string, number>> {
  const [row] = rowsOf<{ versions: Array<[string, number | string]> }>(
    await tx.execute(sql`SELECT ${setLocalExpressions(searchSettings(settings))}, (SELECT coalesce(json_agg(json_build_array(knowledge_base_id, version)), '[]')
        FROM kb_stats WHERE knowledge_base_id = ANY(${uuidArray(knowledgeBaseIds)})) AS versions`),
  );
  // bigint inside json: a number, or a string above 2^53 on some drivers.
  return new Map((row?.versions ?? []).map(([id, version]) => [id, Number(version)]));
}

/**
 * The knowledge bases' search: the hybrid query in the database, or over the
 * process's in-memory indexes, which share one memory budget
 * (`indexMemoryBytes`, SEARCH_INDEX_MEMORY_MB; unlimited unless given).
 */
export function createRagRepository(
  db: Database,
  options: { efSearch?: number; indexMemoryBytes?: number; dimensions?: number } = {},
) {
  const iterativeScan = iterativeScanSupport(db);
  const budget = createIndexBudget({ limitBytes: options.indexMemoryBytes ?? Number.POSITIVE_INFINITY });
  const keywordIndex = createKeywordIndex({ db, budget });
  const vectorIndex = createVectorIndex({
    db,
    efSearch: options.efSearch,
    budget,
    ...(options.dimensions ? { dimensions: options.dimensions } : {}),
  });
  const memorySearch = createMemorySearch({ db, keywordIndex, vectorIndex });
  const served = { memory: 0, database: 0 };

  return {
    /** Ids of every knowledge base of a department, oldest first. */
    async knowledgeBaseIdsOfDepartment(departmentId: string, tx: DbExecutor = db): Promise<string[]> {
      const rows = await tx
        .select({ id: knowledgeBases.id })
        .from(knowledgeBases)
        .where(eq(knowledgeBases.departmentId, departmentId))
        .orderBy(asc(knowledgeBases.createdAt), asc(knowledgeBases.id));
      return rows.map((r) => r.id);
    },

    /**
     * The hybrid search's rows, ranked by the fusion (hybrid-search.ts):
     * from the in-memory indexes when they are current, else
     * {@link searchInDatabase} in a transaction with the search settings;
     * the keyword leg's candidates come from the in-memory index
     * (reloading a base whose chunks changed) unless `keywordLeg` is
     * `exhaustive`.
     */
    async hybridSearch(query: HybridQuery, efSearch: number): Promise<HybridRow[]> {
      if (query.knowledgeBaseIds.length === 0) return [];
      if (query.vectorLeg !== 'database' && query.keywordLeg !== 'exhaustive' && vectorIndex.available) {
        const rows = await memorySearch.search(query);
        if (rows) {
          served.memory++;
          return rows;
        }
      }
      served.database++;
      const iterative = await iterativeScan();
      return db.transaction(async (tx) => {
        const settings = { efSearch, candidates: query.candidates, iterativeScan: iterative };
        const versions = await prepareSearch(tx, settings, query.knowledgeBaseIds);
        // Left undefined (`exhaustive`), the statement computes the keyword leg and its statistics itself.
        let keywordCandidates: string[] | undefined;
        let keywordWeights: KeywordWeights | undefined;
        if (query.keywordLeg !== 'exhaustive') {
          keywordCandidates = [];
          if (query.terms.length > 0) {
            const n = Math.max(1, Math.floor(query.candidates));
            const found = await keywordIndex.candidates(tx, versions, query.knowledgeBaseIds, query.terms, n);
            // Null: the memory budget holds no index of some base, and the statement computes the leg.
            keywordCandidates = found?.proposed.map((candidate) => candidate.id);
            keywordWeights = found?.weights;
          }
        }
        return searchInDatabase(tx, { ...query, keywordCandidates, keywordWeights });
      });
    },

    /**
     * Loads, or brings up to date, the in-memory vector indexes of the given
     * knowledge bases, so that the next searches of them run in memory.
     * @throws when a read fails.
     */
    warmSearch(knowledgeBaseIds: readonly string[]): Promise<void> {
      return vectorIndex.warm(knowledgeBaseIds);
    },

    /** The in-memory indexes' memory budget and what it holds now (bytes, estimated). */
    indexMemory(): { limitBytes: number; usedBytes: number } {
      return { limitBytes: budget.limitBytes, usedBytes: budget.usedBytes() };
    },

    /** How many searches each vector leg served in this process (memory or the database). */
    servedSearches(): { memory: number; database: number } {
      return { ...served };
    },
  };
}

export type RagRepository = ReturnType<typeof createRagRepository>;
