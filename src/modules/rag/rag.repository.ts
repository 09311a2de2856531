import { asc, eq, type SQL, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../../core/db/client.js';
import { knowledgeBases } from '../../core/db/schema/index.js';
import { iterativeScanSupport, setLocalSettings, vectorLiteral } from '../../core/db/vector.js';
import { isUuid } from '../../core/ids.js';
import { DEFAULT_RAG_WEIGHTS } from './scoring.js';

/** The inputs of one hybrid query. */
export interface HybridQuery {
  /** The message embedding; null (no words) skips the vector leg. */
  embedding: readonly number[] | null;
  /** The message, for pg_trgm similarity. */
  text: string;
  /** Distinct query terms (see `queryTerms`); empty skips the keyword leg. */
  terms: readonly string[];
  /** Only chunks of these knowledge bases; empty finds nothing. */
  knowledgeBaseIds: readonly string[];
  /** When given, only knowledge bases of these departments (a second fence behind the id list). */
  departmentIds?: readonly string[] | undefined;
  /** Top-N of each leg. */
  candidates: number;
  /** How many of the candidates get the pg_trgm part of the keyword score and are answered. */
  shortlist: number;
  /**
   * `bounded` (the default) ranks only the chunks the tiers of
   * {@link keywordLeg} let through; `exhaustive` ranks every chunk matching
   * any term, the reference the retrieval benchmark measures recall against.
   */
  keywordLeg?: 'bounded' | 'exhaustive';
}

/** One candidate chunk with its component scores and the blended score. */
export interface HybridRow {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  departmentId: string;
  title: string;
  content: string;
  chunkIndex: number;
  /** Cosine similarity clamped to [0, 1]; 0 without an embedding. */
  cosine: number;
  /** Keyword score in [0, 1]. */
  keyword: number;
  /** `(v × cosine + k × keyword) / (v + k)` with the knowledge base's ragWeights. */
  score: number;
}

/** pg_trgm's work grows with the message too; its first 1000 characters carry the signal. */
const TRIGRAM_TEXT_MAX = 1000;

/** A PostgreSQL uuid[] literal; ids are checked, so nothing else can reach the SQL. */
function uuidArray(ids: readonly string[]): SQL {
  for (const id of ids) if (!isUuid(id)) throw new Error(`not a uuid: ${id}`);
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

// bench/pipeline.ts still imports it from here; the helper itself lives in core/db/vector.ts.

/** Tier 2 of the keyword leg (every term but one) only up to this many terms: its tsquery grows as n². */
const ALL_BUT_ONE_MAX_TERMS = 6;

/** The bounded OR tier ranks at most this many matches per candidate it answers. */
const OR_TIER_FACTOR = 4;

/**
 * The keyword leg: the top `n` chunks by `ts_rank` among those holding the
 * query terms. Ranking every chunk that matches ANY term is what made it
 * slow: a message with a few common words matches most of the knowledge
 * base (8 700 of 10 000 chunks in the pipeline benchmark), and each match
 * is a heap fetch plus a tsvector test and a rank, 80 ms on PostgreSQL. The
 * bounded leg asks the GIN index in tiers of falling coverage and stops as
 * soon as it has `n` rows (a `UNION ALL` under a `LIMIT` runs its branches
 * in order and only as far as needed):
 *
 * 1. chunks holding every term (an AND query: the index intersects the
 *    posting lists, well under a millisecond);
 * 2. for 3 to {@link ALL_BUT_ONE_MAX_TERMS} terms, chunks holding all but
 *    one of them (not already in tier 1);
 * 3. chunks holding any term, of which only the first `OR_TIER_FACTOR × n`
 *    found are ranked.
 *
 * Each tier is ranked by `ts_rank` over the OR query, as before. The leg
 * only proposes candidates; every candidate is then scored by coverage,
 * cosine and pg_trgm alike, and the vector leg proposes its own 40, so what
 * the bound gives up is a weakly covered chunk that is also far from the
 * message in meaning, which the blended score would not have ranked high
 * (recall@10 against the exhaustive leg: docs/benchmarks.md).
 */
function keywordLeg(terms: readonly string[], kbIds: SQL, n: number, mode: 'bounded' | 'exhaustive'): SQL {
  const orQuery = sql`to_tsquery('simple', ${terms.join(' | ')})`;
  const rank = sql`ts_rank(c.search_vector, ${orQuery}) DESC`;
  const inScope = sql`c.knowledge_base_id = ANY(${kbIds})`;
  if (mode === 'exhaustive' || terms.length === 1) {
    return sql`(SELECT c.id FROM chunks c WHERE ${inScope} AND c.search_vector @@ ${orQuery} ORDER BY ${rank} LIMIT ${n})`;
  }
  const andQuery = sql`to_tsquery('simple', ${terms.join(' & ')})`;
  const tiers: SQL[] = [
    sql`(SELECT c.id FROM chunks c WHERE ${inScope} AND c.search_vector @@ ${andQuery} ORDER BY ${rank} LIMIT ${n})`,
  ];
  if (terms.length >= 3 && terms.length <= ALL_BUT_ONE_MAX_TERMS) {
    const allButOne = terms
      .map((_, skip) => `(${terms.filter((__, i) => i !== skip).join(' & ')})`)
      .join(' | ');
    tiers.push(sql`(SELECT c.id FROM chunks c
      WHERE ${inScope} AND c.search_vector @@ to_tsquery('simple', ${allButOne}) AND NOT c.search_vector @@ ${andQuery}
      ORDER BY ${rank} LIMIT ${n})`);
  }
  tiers.push(sql`(SELECT c.id FROM (
      SELECT c.id, c.search_vector FROM chunks c WHERE ${inScope} AND c.search_vector @@ ${orQuery}
      LIMIT ${n * OR_TIER_FACTOR}
    ) c ORDER BY ${rank} LIMIT ${n})`);
  return sql`(SELECT tiered.id FROM (${sql.join(tiers, sql` UNION ALL `)}) AS tiered LIMIT ${n})`;
}

/**
 * The hybrid retrieval query, one statement:
 *
 * 1. vector leg: `ORDER BY embedding <=> $q LIMIT N` over the allowed
 *    knowledge bases, served by the HNSW index `chunks_embedding_idx`;
 * 2. keyword leg: chunks whose `search_vector` (a `simple` tsvector) holds
 *    the query terms, top N by `ts_rank`, served by the GIN index (see
 *    {@link keywordLeg}: the best-covered chunks first, so common words do
 *    not make it rank most of the knowledge base);
 * 3. the union of both, each candidate scored:
 *    - cosine = 1 − cosine distance, clamped to [0, 1];
 *    - keyword = (coverage + trigram) / 2, where coverage is the share of the
 *      query terms present in the chunk's tsvector and trigram is pg_trgm's
 *      `word_similarity(message, content)`; both lie in [0, 1];
 *    - score = (v × cosine + k × keyword) / (v + k) with the knowledge base's
 *      `ragWeights` (negative or missing weights count as 0; weights adding
 *      up to 0 use the default 0.7 / 0.3);
 *    pg_trgm costs about 0.5 ms per 2 KB chunk, so it is computed for the
 *    best `shortlist` candidates only, ranked first with keyword = coverage;
 * 4. ordered by score, best first (at most `shortlist` rows).
 *
 * Kept PostgreSQL 15 compatible. Scope: only `knowledgeBaseIds` (and, when
 * given, `departmentIds`) are ever read.
 */
export function hybridSearchQuery(query: HybridQuery): SQL {
  const kbIds = uuidArray(query.knowledgeBaseIds);
  const n = Math.max(1, Math.floor(query.candidates));
  const vector = query.embedding ? vectorLiteral(query.embedding) : null;

  const legs: SQL[] = [];
  if (vector) {
    legs.push(sql`(SELECT c.id FROM chunks c
      WHERE c.knowledge_base_id = ANY(${kbIds}) AND c.embedding IS NOT NULL
      ORDER BY c.embedding <=> ${vector}::vector LIMIT ${n})`);
  }
  if (query.terms.length > 0) legs.push(keywordLeg(query.terms, kbIds, n, query.keywordLeg ?? 'bounded'));
  if (legs.length === 0) legs.push(sql`(SELECT NULL::uuid AS id WHERE false)`);

  const cosine = vector
    ? sql`coalesce(greatest(0, least(1, 1 - (c.embedding <=> ${vector}::vector))), 0)`
    : sql`0::float8`;
  const coverage =
    query.terms.length > 0
      ? sql`(SELECT count(*) FROM unnest(string_to_array(${query.terms.join(' ')}, ' ')) AS t(term)
            WHERE c.search_vector @@ to_tsquery('simple', t.term))::float8 / ${query.terms.length}`
      : sql`0::float8`;
  const weight = (key: 'vector' | 'keyword') =>
    sql`CASE WHEN jsonb_typeof(kb.rag_weights -> ${key}) = 'number'
      THEN greatest(0, (kb.rag_weights ->> ${key})::float8) ELSE 0 END`;
  const departmentFence = query.departmentIds
    ? sql`AND kb.department_id = ANY(${uuidArray(query.departmentIds)})`
    : sql``;

  const shortlist = Math.max(1, Math.floor(query.shortlist));
  return sql`WITH candidates AS (${sql.join(legs, sql` UNION `)}),
    scored AS MATERIALIZED (
      SELECT c.id AS "chunkId", c.document_id AS "documentId", c.knowledge_base_id AS "knowledgeBaseId",
        kb.department_id AS "departmentId", d.title, c.content, c.chunk_index AS "chunkIndex",
        ${cosine} AS cosine,
        ${coverage} AS coverage,
        ${weight('vector')} AS wv,
        ${weight('keyword')} AS wk
      FROM candidates
      JOIN chunks c ON c.id = candidates.id
      JOIN documents d ON d.id = c.document_id
      JOIN knowledge_bases kb ON kb.id = c.knowledge_base_id
      WHERE c.knowledge_base_id = ANY(${kbIds}) ${departmentFence}
    ),
    weighted AS (
      SELECT *,
        CASE WHEN wv + wk > 0 THEN wv / (wv + wk) ELSE ${DEFAULT_RAG_WEIGHTS.vector}::float8 END AS nv,
        CASE WHEN wv + wk > 0 THEN wk / (wv + wk) ELSE ${DEFAULT_RAG_WEIGHTS.keyword}::float8 END AS nk
      FROM scored
    ),
    shortlist AS MATERIALIZED (
      SELECT * FROM weighted ORDER BY nv * cosine + nk * coverage DESC, "chunkId" LIMIT ${shortlist}
    ),
    final AS (
      SELECT *, (coverage + word_similarity(${query.text.slice(0, TRIGRAM_TEXT_MAX)}, content)) / 2 AS keyword
      FROM shortlist
    )
    SELECT "chunkId", "documentId", "knowledgeBaseId", "departmentId", title, content, "chunkIndex",
      cosine, keyword, nv * cosine + nk * keyword AS score
    FROM final
    ORDER BY score DESC, "chunkId"`;
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
 *   while taking cores from concurrent queries.
 */
export async function applySearchSettings(
  tx: DbExecutor,
  settings: { efSearch: number; candidates: number; iterativeScan: boolean },
): Promise<void> {
  const values: Array<[string, string]> = [
    ['hnsw.ef_search', String(Math.max(settings.efSearch, settings.candidates))],
    ['cpu_operator_cost', DISTANCE_AWARE_CPU_OPERATOR_COST],
    ['max_parallel_workers_per_gather', '0'],
  ];
  if (settings.iterativeScan) values.push(['hnsw.iterative_scan', 'strict_order']);
  await setLocalSettings(tx, values);
}

export function createRagRepository(db: Database) {
  const iterativeScan = iterativeScanSupport(db);
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

    /** Runs {@link hybridSearchQuery} in a transaction with {@link applySearchSettings}. */
    async hybridSearch(query: HybridQuery, efSearch: number): Promise<HybridRow[]> {
      if (query.knowledgeBaseIds.length === 0) return [];
      const iterative = await iterativeScan();
      return db.transaction(async (tx) => {
        await applySearchSettings(tx, { efSearch, candidates: query.candidates, iterativeScan: iterative });
        const rows = rowsOf<HybridRow>(await tx.execute(hybridSearchQuery(query)));
        return rows.map((r) => ({
          ...r,
          chunkIndex: Number(r.chunkIndex),
          cosine: Number(r.cosine),
          keyword: Number(r.keyword),
          score: Number(r.score),
        }));
      });
    },
  };
}

export type RagRepository = ReturnType<typeof createRagRepository>;
