/** The shapes of a hybrid search, shared by its two paths (rag.repository.ts, memory-search.ts). */

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
  /** Cosine similarity clamped to [0, 1]; 0 without an embedding. */
  cosine: number;
  /** Raw Okapi BM25 of the chunk for the message's terms (0 when it holds none). */
  bm25: number;
  /** Keyword score in [0, 1]: the greater of normalised BM25 and trigram similarity. */
  keyword: number;
  /** `(v × cosine + k × keyword) / (v + k)` with the knowledge base's ragWeights. */
  score: number;
  /** The fingerprint of the detector whose ingestion scan read the content; null when none did. */
  scannedBy: string | null;
}
