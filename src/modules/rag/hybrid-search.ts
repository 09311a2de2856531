/**
 * The shapes of a hybrid search, its scoring and its fusion, shared by its
 * two paths (rag.repository.ts, memory-search.ts): each path finds the
 * candidates and reads their raw figures (cosine, BM25 and the query's BM25
 * reference, the base's `ragWeights`, pg_trgm's word similarity); every
 * score and the ranking are computed once, here ({@link scoreCandidate},
 * {@link rankRows}).
 */
import { DEFAULT_RAG_WEIGHTS } from './scoring.js';

/** The inputs of one hybrid query. */
export interface HybridQuery {
  /** The message embedding; null (no words) skips the vector leg. */
  embedding: readonly number[] | null;
  /** The message, for pg_trgm similarity. */
  text: string;
  /** Distinct analysed query terms (see `queryKeywordTerms`); empty skips the keyword leg. */
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
   * Where the keyword leg's candidates come from: `index` (the default), the
   * process's in-memory inverted index (keyword-index.ts); `exhaustive`, the
   * same leg computed in SQL, the reference tests and the retrieval
   * benchmark check it against.
   */
  keywordLeg?: 'index' | 'exhaustive';
  /**
   * Where the vector leg runs: `memory` (the default), the process's
   * in-memory index (vector-index.ts) when it is current with every
   * searched base, else the database's HNSW index; `database` always the
   * latter.
   */
  vectorLeg?: 'memory' | 'database';
  /**
   * The searched bases' versions, departments and weights when the caller
   * read them already (the pipeline reads them with the task's context):
   * the in-memory path then reads nothing before it searches. Used only
   * when it names every base of `knowledgeBaseIds`.
   */
  bases?: readonly KnowledgeBaseSnapshot[] | undefined;
}

/** A knowledge base as a search reads it: its version (`kb_stats.version`), department and weights. */
export interface KnowledgeBaseSnapshot {
  id: string;
  departmentId: string;
  ragWeights: unknown;
  /** Null while the base has no statistics row yet. */
  version: number | string | null;
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
  /** The section headings the chunk sits under, outermost first (chunk metadata; empty when none). */
  headingPath: string[];
  /** Cosine similarity clamped to [0, 1]; 0 without an embedding. */
  cosine: number;
  /** Raw Okapi BM25 of the chunk for the message's terms (0 when it holds none). */
  bm25: number;
  /** Keyword score in [0, 1]: the greater of normalised BM25 and trigram similarity. */
  keyword: number;
  /** `(v × cosine + k × keyword) / (v + k)` with the knowledge base's ragWeights: the confidence's basis. */
  score: number;
  /** The rank fusion of the two legs ({@link fuseRanks}) in [0, 1]: rows come ordered by it. */
  fused: number;
  /** The fingerprint of the detector whose ingestion scan read the content; null when none did. */
  scannedBy: string | null;
}

/** A candidate chunk of either leg with its leg scores and its base's weights. */
export interface HybridCandidate {
  id: string;
  knowledgeBaseId: string;
  departmentId: string;
  /** Cosine similarity clamped to [0, 1]; 0 when the vector leg did not run. */
  cosine: number;
  /** Raw Okapi BM25. */
  bm25: number;
  /** BM25 over the query's reference, clamped to [0, 1]: the keyword score's lower bound. */
  bm25n: number;
  /** The base's normalised weights: `nv + nk = 1`. */
  nv: number;
  nk: number;
}

/** A candidate's figures as a path reads them, before any scoring. */
export interface RawCandidate {
  id: string;
  knowledgeBaseId: string;
  departmentId: string;
  /** 1 − cosine distance as computed (null or absent: no vector, or the vector leg did not run). */
  cosine: number | null;
  /** Raw Okapi BM25 (0 when the chunk holds no query term). */
  bm25: number;
  /** The query's BM25 reference score (`bm25Reference`); 0 without query terms. */
  reference: number;
  /** The base's `ragWeights` as stored (any JSON). */
  ragWeights: unknown;
}

/** A weight as stored: a JSON number, at least 0; anything else 0. */
function weightOf(weights: unknown, key: 'vector' | 'keyword'): number {
  const value = (weights as Record<string, unknown> | null)?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : 0;
}

/**
 * A base's `ragWeights` normalised to add up to 1 (negative or missing
 * weights count as 0; weights adding up to 0 use the default 0.7 / 0.3).
 */
export function normalisedWeights(ragWeights: unknown): { nv: number; nk: number } {
  const wv = weightOf(ragWeights, 'vector');
  const wk = weightOf(ragWeights, 'keyword');
  const sum = wv + wk;
  return sum > 0
    ? { nv: wv / sum, nk: wk / sum }
    : { nv: DEFAULT_RAG_WEIGHTS.vector, nk: DEFAULT_RAG_WEIGHTS.keyword };
}

/**
 * The one scoring of a candidate, whichever path read it: cosine clamped
 * to [0, 1] (0 without one); bm25n = min(1, bm25 / reference), BM25
 * normalised by the query's reference score (a chunk that covers the whole
 * query as well as a typical chunk scores 1; docs/knowledge.md); the
 * base's normalised weights.
 */
export function scoreCandidate(raw: RawCandidate): HybridCandidate {
  const cosine =
    raw.cosine === null || !Number.isFinite(raw.cosine) ? 0 : Math.max(0, Math.min(1, raw.cosine));
  return {
    id: raw.id,
    knowledgeBaseId: raw.knowledgeBaseId,
    departmentId: raw.departmentId,
    cosine,
    bm25: raw.bm25,
    bm25n: raw.reference > 0 ? Math.min(1, raw.bm25 / raw.reference) : 0,
    ...normalisedWeights(raw.ragWeights),
  };
}

/**
 * The blended score: `nv × cosine + nk × keyword`, keyword being the
 * greater of bm25n and pg_trgm's word similarity (the confidence's basis;
 * the ranking is the fusion's).
 */
export function blendedScore(
  candidate: Pick<HybridCandidate, 'cosine' | 'bm25n' | 'nv' | 'nk'>,
  trigram: number,
): { keyword: number; score: number } {
  const keyword = Math.max(candidate.bm25n, trigram);
  return { keyword, score: candidate.nv * candidate.cosine + candidate.nk * keyword };
}

/**
 * Reciprocal-rank fusion's constant (Cormack, Clarke and Büttcher, SIGIR
 * 2009): a rank r weighs 1 / (k + r), so the first places of a leg count
 * more than the rest without one leg's first place deciding alone.
 */
export const RRF_K = 60;

/**
 * Each value's rank among the positive values, best first (1 + how many
 * are greater, so equal values share a rank); null for a value of 0 (the
 * leg did not find that chunk).
 */
function ranksOf(values: readonly number[]): Array<number | null> {
  const sorted = values.filter((v) => v > 0).sort((a, b) => b - a);
  return values.map((value) => {
    if (!(value > 0)) return null;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]! > value) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  });
}

/**
 * The legs' weights in the rank fusion, from a base's normalised ragWeights
 * relative to the default: the default 0.7 / 0.3 evens out the raw scores'
 * scales (a lexical cosine sits lower than a keyword score that reaches 1),
 * which ranks do not have, so it weighs both legs equally; a base that
 * leans to one leg more than the default leans the fusion the same way
 * (1 / 0 and 0 / 1 keep one leg only).
 */
export function fusionWeights(nv: number, nk: number): { vector: number; keyword: number } {
  const vector = nv / DEFAULT_RAG_WEIGHTS.vector;
  const keyword = nk / DEFAULT_RAG_WEIGHTS.keyword;
  const sum = vector + keyword;
  return sum > 0 ? { vector: vector / sum, keyword: keyword / sum } : { vector: 0.5, keyword: 0.5 };
}

/**
 * Weighted reciprocal-rank fusion of the two legs over the given rows:
 * Σ weight × (k + 1) / (k + rank) over the legs that found the row (rank
 * among these rows by cosine, and by `keywordOf`), so a row first in both
 * legs scores 1. Ranks, not scores: a leg whose scores are high but whose
 * order is poor cannot drown the other (measured in docs/quality.md).
 */
export function fuseRanks<T extends { cosine: number; nv: number; nk: number }>(
  rows: readonly T[],
  keywordOf: (row: T) => number,
): number[] {
  const vectorRanks = ranksOf(rows.map((row) => row.cosine));
  const keywordRanks = ranksOf(rows.map(keywordOf));
  return rows.map((row, i) => {
    const weights = fusionWeights(row.nv, row.nk);
    const vectorRank = vectorRanks[i];
    const keywordRank = keywordRanks[i];
    return (
      (vectorRank ? (weights.vector * (RRF_K + 1)) / (RRF_K + vectorRank) : 0) +
      (keywordRank ? (weights.keyword * (RRF_K + 1)) / (RRF_K + keywordRank) : 0)
    );
  });
}

function byChunkId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The candidates that get the full keyword score (pg_trgm costs about 0.5 ms
 * per 2 KB chunk): the best `shortlist` by the fusion with keyword = the
 * normalised BM25 (a lower bound of the keyword score).
 */
export function shortlistOf<T extends HybridCandidate>(candidates: readonly T[], shortlist: number): T[] {
  const fused = fuseRanks(candidates, (c) => c.bm25n);
  return candidates
    .map((candidate, i) => ({ candidate, fused: fused[i]! }))
    .sort((a, b) => b.fused - a.fused || byChunkId(a.candidate.id, b.candidate.id))
    .slice(0, Math.max(1, Math.floor(shortlist)))
    .map(({ candidate }) => candidate);
}

/** A shortlisted chunk as read for its row, with its trigram word similarity to the message. */
export interface ShortlistedChunk {
  documentId: string;
  title: string;
  content: string;
  chunkIndex: number;
  /** The chunk's `metadata.headingPath` as stored (null or not an array when it has none). */
  headingPath: unknown;
  scannedBy: string | null;
  /** pg_trgm's `word_similarity(message, content)` (float4, as a number). */
  trigram: number;
}

/**
 * The search's rows from the shortlist and its chunks as read (a candidate
 * whose chunk was not read, held back or deleted since, is left out):
 * keyword = max(normalised BM25, trigram), score = nv × cosine + nk ×
 * keyword, fused = {@link fuseRanks} over these rows; ordered by the
 * fusion, then the score, then the chunk id.
 */
export function rankRows(
  shortlist: readonly HybridCandidate[],
  chunks: ReadonlyMap<string, ShortlistedChunk>,
): HybridRow[] {
  const rows: Array<Omit<HybridRow, 'fused'> & { nv: number; nk: number }> = [];
  for (const c of shortlist) {
    const chunk = chunks.get(c.id);
    if (!chunk) continue;
    const { keyword, score } = blendedScore(c, chunk.trigram);
    rows.push({
      chunkId: c.id,
      documentId: chunk.documentId,
      knowledgeBaseId: c.knowledgeBaseId,
      departmentId: c.departmentId,
      title: chunk.title,
      content: chunk.content,
      chunkIndex: Number(chunk.chunkIndex),
      headingPath: headingPathOf(chunk.headingPath),
      cosine: c.cosine,
      bm25: c.bm25,
      keyword,
      score,
      scannedBy: chunk.scannedBy,
      nv: c.nv,
      nk: c.nk,
    });
  }
  const fused = fuseRanks(rows, (row) => row.keyword);
  return rows
    .map(({ nv: _nv, nk: _nk, ...row }, i) => ({ ...row, fused: fused[i]! }))
    .sort((a, b) => b.fused - a.fused || b.score - a.score || byChunkId(a.chunkId, b.chunkId));
}

/** The strings of a stored heading path; anything else reads as no headings. */
function headingPathOf(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((h): h is string => typeof h === 'string') : [];
}
