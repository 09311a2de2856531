import { type SQL, sql } from 'drizzle-orm';

/** Okapi BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;
/** Okapi BM25 length normalisation. */
export const BM25_B = 0.75;

/** Okapi BM25's idf of term row `t` (its `df`) in corpus row `k` (its `n`): one expression for `kw_idf` and the reference. */
const IDF = sql.raw('ln(1 + (k.n - t.df + 0.5) / (t.df + 0.5))');

// Constants written into the statement (as parameters their type would be guessed as integer).
const K1 = sql.raw(`${BM25_K1}::float8`);
const K1_PLUS_1 = sql.raw(`${BM25_K1 + 1}::float8`);
const B = sql.raw(`${BM25_B}::float8`);

/**
 * A query's BM25 statistics over bases searched together, with N, df and the
 * lengths summed over the bases: what the SQL query reads from
 * `kb_term_stats` and `kb_stats` ({@link keywordStatsCtes}), here from
 * the same counts held in memory (keyword-index.ts).
 */
export interface KeywordWeights {
  /** The query terms some chunk holds, ascending, and their idf (`kw_weights`). */
  terms: string[];
  idfs: number[];
  /** Indexed chunks (N) and their average length (`kw_corpus`). */
  chunkCount: number;
  avgdl: number;
  /**
   * Σ idf over every query term, a term no chunk holds counting at df 0:
   * the score BM25 is normalised by (`bm25Reference`).
   */
  reference: number;
}

/** A PostgreSQL text[] literal of terms (letters and digits only, so no quoting is needed). */
export function termArray(terms: readonly string[]): SQL {
  for (const term of terms) if (!/^[\p{L}\p{N}]+$/u.test(term)) throw new Error(`not a term: ${term}`);
  return sql`${`{${terms.join(',')}}`}::text[]`;
}

/**
 * The BM25 statistics of a query, as CTEs to put first in a `WITH`:
 * - `kw_terms(term, df)`: every distinct query term and its document
 *   frequency summed over the searched bases (kb_term_stats, 0 when none
 *   holds it);
 * - `kw_corpus(n, avgdl)`: indexed chunks and their average length (kb_stats);
 * - `kw_idf(term, df, idf)`: the terms some chunk holds, idf = ln(1 + (N −
 *   df + 0.5) / (df + 0.5));
 * - `kw_weights(terms, idfs)`: the same as two arrays in term order, one row,
 *   which each chunk's score reads by position.
 */
export function keywordStatsCtes(terms: readonly string[], kbIds: SQL): SQL {
  // One primary-key probe (base, term) per query term: joined instead, the planner reads every term
  // of the searched bases (thousands of rows) and hashes them.
  return sql`kw_terms AS MATERIALIZED (
      SELECT t.term, coalesce((
          SELECT sum(s.df) FROM kb_term_stats s
          WHERE s.knowledge_base_id = ANY(${kbIds}) AND s.term = t.term
        ), 0)::float8 AS df
      FROM (SELECT DISTINCT term FROM unnest(${termArray(terms)}) AS u(term)) AS t
    ),
    kw_corpus AS (
      SELECT coalesce(sum(chunk_count), 0)::float8 AS n,
        coalesce(sum(total_terms)::float8 / nullif(sum(chunk_count), 0), 1) AS avgdl
      FROM kb_stats WHERE knowledge_base_id = ANY(${kbIds})
    ),
    kw_idf AS MATERIALIZED (
      SELECT t.term, t.df, ${IDF} AS idf
      FROM kw_terms t, kw_corpus k WHERE t.df > 0
    ),
    kw_weights AS MATERIALIZED (
      SELECT array_agg(term ORDER BY term) AS terms, array_agg(idf ORDER BY term) AS idfs FROM kw_idf
    )`;
}

/**
 * The same `kw_corpus` and `kw_weights` as {@link keywordStatsCtes}, from
 * statistics the service holds (the in-memory keyword index counts what
 * `kb_stats` and `kb_term_stats` count): two one-row CTEs of parameters
 * instead of a probe per query term, and less for the planner. Pair with
 * {@link bm25ReferenceOf}; the exhaustive leg needs `kw_idf` and so
 * {@link keywordStatsCtes}.
 */
export function keywordWeightCtes(weights: KeywordWeights): SQL {
  for (const value of [weights.chunkCount, weights.avgdl, ...weights.idfs])
    if (!Number.isFinite(value)) throw new Error(`not a finite statistic: ${value}`);
  return sql`kw_corpus AS (SELECT ${weights.chunkCount}::float8 AS n, ${weights.avgdl}::float8 AS avgdl),
    kw_weights AS (SELECT ${termArray(weights.terms)} AS terms, ${`{${weights.idfs.join(',')}}`}::float8[] AS idfs)`;
}

/** {@link bm25Reference} from statistics the service holds (see {@link keywordWeightCtes}). */
export function bm25ReferenceOf(weights: KeywordWeights): SQL {
  if (!Number.isFinite(weights.reference)) throw new Error(`not a finite reference: ${weights.reference}`);
  return sql`${weights.reference}::float8`;
}

/**
 * BM25 of chunk `c` for the query of {@link keywordStatsCtes} (needs
 * `kw_weights` and `kw_corpus` in scope): Σ idf × tf × (k1 + 1) / (tf + k1 × (1 − b
 * + b × len / avgdl)) over the query terms the chunk holds. The chunk's
 * tsvector is first cut to the query terms (`setweight` marks them A,
 * `ts_filter` keeps the A ones), so only those are unnested: tf is the
 * number of positions of a term.
 *
 * Each chunk reads its terms' idf from the `kw_weights` arrays
 * (`array_position`) rather than joining `kw_idf`: the join built a hash
 * table per chunk, 68 µs a chunk on PGlite against 31 µs now (66 candidates
 * a query in the pipeline benchmark).
 */
export function bm25Score(): SQL {
  return sql`coalesce((
    SELECT sum(w.idfs[array_position(w.terms, m.lexeme)] * m.tf * ${K1_PLUS_1} / (m.tf + ${K1} * (1 - ${B} + ${B} * c.term_count / k.avgdl)))
    FROM kw_weights w CROSS JOIN kw_corpus k
    CROSS JOIN LATERAL (SELECT u.lexeme, coalesce(array_length(u.positions, 1), 1)::float8 AS tf
          FROM unnest(ts_filter(setweight(c.terms, 'A', w.terms), '{a}')) AS u) AS m
  ), 0)::float8`;
}

/**
 * The query's reference score (needs `kw_terms` and `kw_corpus` in scope),
 * an uncorrelated scalar subquery over the query terms only: Σ idf over
 * every query term, a term no searched chunk holds counting at df 0 (the
 * rarest idf, ln(1 + (N + 0.5) / 0.5)). It is what a chunk of average length
 * holding each query term once scores, so BM25 divided by it says how much
 * of the query a chunk covers: a chunk that holds only the common words of a
 * message whose telling word the knowledge base lacks no longer looks like a
 * full match, and the vector leg decides such a message. Same idf as
 * `kw_idf`, which leaves out the terms of df 0 because they propose no
 * candidates.
 */
export function bm25Reference(): SQL {
  return sql`(SELECT sum(${IDF}) FROM kw_terms t CROSS JOIN kw_corpus k)`;
}

/**
 * The keyword leg computed in SQL over the GIN index on `terms`: every
 * servable chunk holding a query term, best `n` by BM25 (ties by id). It
 * scores every match, so it is slow for common words; the service proposes
 * the same candidates from its in-memory index (keyword-index.ts), and this
 * stays as the reference they are checked and benchmarked against.
 */
export function exhaustiveBm25Leg(kbIds: SQL, n: number): SQL {
  return sql`(SELECT c.id FROM chunks c
    WHERE c.knowledge_base_id = ANY(${kbIds}) AND NOT c.held_back
      AND c.terms @@ (SELECT string_agg(quote_literal(term), ' | ')::tsquery FROM kw_idf)
    ORDER BY ${bm25Score()} DESC, c.id LIMIT ${n})`;
}
