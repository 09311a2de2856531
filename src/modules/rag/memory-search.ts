import { sql } from 'drizzle-orm';
import { type DbExecutor, rowsOf } from '../../core/db/client.js';
import { uuidArray } from '../../core/db/sql-helpers.js';
import { groupCommit } from '../../core/group-commit.js';
import { memoiseByText } from '../../core/memo.js';
import type { KeywordWeights } from './bm25.js';
import {
  type HybridCandidate,
  type HybridQuery,
  type HybridRow,
  type KnowledgeBaseSnapshot,
  rankRows,
  type ShortlistedChunk,
  scoreCandidate,
  shortlistOf,
} from './hybrid-search.js';
import { bm25Scores, type KeywordIndex } from './keyword-index.js';
import { trigramProfile, trigramsOf, wordSimilarityOver } from './trigram.js';
import { queryVector, type VectorIndex } from './vector-index.js';

/**
 * The hybrid search served from the process's in-memory indexes: the
 * same chunks, figures and order as `searchInDatabase` (rag.repository.ts
 * documents each step), computed here:
 *
 * 1. one statement reads the searched bases' versions, departments and
 *    `ragWeights` (unless the query gives them: `HybridQuery.bases`); both
 *    indexes must be current with those versions, or the search is left
 *    to the database (null);
 * 2. the vector leg (vector-index.ts) and the keyword leg (keyword-index.ts)
 *    propose their best N each, with every candidate's cosine and BM25;
 * 3. the candidates of the allowed departments, with their base's
 *    weights, go through the same fusion as in SQL (hybrid-search.ts,
 *    {@link shortlistOf}), which keeps the best `shortlist`;
 * 4. a second statement reads those chunks (content, title, document),
 *    not held back, in the searched bases;
 * 5. pg_trgm's word similarity of the message and each content
 *    (trigram.ts, the same float4) completes the keyword score, and
 *    {@link rankRows} scores and orders them, as in SQL.
 */

/** pg_trgm's work grows with the message too; its first 1000 characters carry the signal. */
export const TRIGRAM_TEXT_MAX = 1000;

/** A searched base as read with its version. */
interface SearchedBase {
  departmentId: string;
  /** Its `ragWeights` as stored (scored by {@link scoreCandidate}). */
  ragWeights: unknown;
}

/** The bases' versions, departments and normalised weights, in one snapshot. */
async function readBases(db: DbExecutor, knowledgeBaseIds: readonly string[]) {
  // Joined to the id list rather than filtered by `= ANY(...)`: PostgreSQL then keeps a generic
  // plan of the prepared statement instead of planning it on every run (0.34 → 0.14 ms on PGlite).
  return rowsOf<KnowledgeBaseSnapshot>(
    await db.execute(sql`SELECT kb.id, kb.department_id AS "departmentId", kb.rag_weights AS "ragWeights", s.version
      FROM unnest(${uuidArray(knowledgeBaseIds)}) AS searched(id)
      JOIN knowledge_bases kb ON kb.id = searched.id
      LEFT JOIN kb_stats s ON s.knowledge_base_id = kb.id`),
  );
}

/**
 * The searched bases as the query gives them when they cover every searched
 * base (read with the caller's own statement), else as read now.
 */
async function basesOf(db: DbExecutor, query: HybridQuery) {
  const given = query.bases;
  const covered = given && query.knowledgeBaseIds.every((id) => given.some((base) => base.id === id));
  const searched = new Set(query.knowledgeBaseIds);
  const rows = covered
    ? given.filter((base) => searched.has(base.id))
    : await readBases(db, query.knowledgeBaseIds);
  const versions = new Map<string, number>();
  const bases = new Map<string, SearchedBase>();
  for (const row of rows) {
    if (row.version !== null) versions.set(row.id, Number(row.version));
    bases.set(row.id, { departmentId: row.departmentId, ragWeights: row.ragWeights });
  }
  return { versions, bases };
}

/** BM25 statistics of a query without terms: nothing weighs, the reference is 0. */
const NO_KEYWORD_WEIGHTS: KeywordWeights = { terms: [], idfs: [], chunkCount: 0, avgdl: 1, reference: 0 };

interface Candidate {
  id: string;
  knowledgeBaseId: string;
  cosine: number;
  bm25: number;
  reference: number;
  base: SearchedBase;
}

/** The chunks one search asks for, and the bases it searches. */
export interface ChunkAsk {
  ids: string[];
  knowledgeBaseIds: readonly string[];
}

/** A shortlisted chunk as read for the search's rows. */
export interface ChunkRow {
  id: string;
  knowledgeBaseId: string;
  documentId: string;
  chunkIndex: number;
  content: string;
  /** `metadata.headingPath` as stored. */
  headingPath: unknown;
  scannedBy: string | null;
  title: string;
}

/**
 * Chunk contents whose trigrams are kept per process: a chunk's text never
 * changes, and the same chunks make many shortlists (about 12 KB each).
 */
export const TRIGRAM_PROFILE_CACHE_SIZE = 2000;

/**
 * Reads shortlisted chunks' rows for the searches a process runs at once,
 * in one statement (group commit, core/group-commit.ts): each search is
 * answered the rows of its own ids that are in its bases and not held
 * back, by id.
 */
export function createShortlistReader(db: DbExecutor): (ask: ChunkAsk) => Promise<Map<string, ChunkRow>> {
  return groupCommit(async (asks: ReadonlyArray<ChunkAsk>) => {
    const rows = rowsOf<ChunkRow>(
      await db.execute(sql`SELECT c.id, c.knowledge_base_id AS "knowledgeBaseId", c.document_id AS "documentId",
          c.chunk_index AS "chunkIndex", c.content, c.metadata->'headingPath' AS "headingPath",
          c.scanned_by AS "scannedBy", d.title
        FROM unnest(${uuidArray([...new Set(asks.flatMap((ask) => ask.ids))])}) AS shortlisted(id)
        JOIN chunks c ON c.id = shortlisted.id
        JOIN documents d ON d.id = c.document_id
        WHERE NOT c.held_back`),
    );
    const read = new Map(rows.map((row) => [row.id, row]));
    return asks.map(({ ids, knowledgeBaseIds }) => {
      const searched = new Set(knowledgeBaseIds);
      const answered = new Map<string, ChunkRow>();
      for (const id of ids) {
        const row = read.get(id);
        if (row && searched.has(row.knowledgeBaseId)) answered.set(id, row);
      }
      return answered;
    });
  });
}

export function createMemorySearch(deps: {
  db: DbExecutor;
  keywordIndex: KeywordIndex;
  vectorIndex: VectorIndex;
}) {
  const { db, keywordIndex, vectorIndex } = deps;
  const profileOf = memoiseByText(trigramProfile, TRIGRAM_PROFILE_CACHE_SIZE);

  const readChunks = createShortlistReader(db);

  /** Steps 1 and 2: every candidate with its base, cosine and BM25; null when an index is not current. */
  async function candidatesOf(query: HybridQuery) {
    const vector = query.embedding ? queryVector(query.embedding) : null;
    const { versions, bases } = await basesOf(db, query);
    const vectorBases = vector ? vectorIndex.current(versions, query.knowledgeBaseIds, vector.length) : [];
    if (!vectorBases) return null;
    const n = Math.max(1, Math.floor(query.candidates));
    const keyword =
      query.terms.length > 0
        ? await keywordIndex.candidates(db, versions, query.knowledgeBaseIds, query.terms, n)
        : null;
    // Null with terms: the memory budget holds no keyword index of some base (the database serves it).
    if (query.terms.length > 0 && !keyword?.current) return null;
    const keywordIds = keyword?.proposed.map((c) => c.id) ?? [];
    const vectorLeg = vector ? vectorIndex.search(vectorBases, vector, n, keywordIds) : null;
    const baseOf = new Map<string, string>();
    for (const c of keyword?.proposed ?? []) baseOf.set(c.id, c.knowledgeBaseId);
    for (const c of vectorLeg?.nearest ?? []) baseOf.set(c.id, c.knowledgeBaseId);
    const ids = [...baseOf.keys()];
    const weights = keyword?.weights ?? NO_KEYWORD_WEIGHTS;
    const bm25s = keyword ? bm25Scores(keyword.bases, weights, ids) : ids.map(() => 0);
    const reference = weights.reference;
    const candidates: Candidate[] = [];
    for (const [i, id] of ids.entries()) {
      const knowledgeBaseId = baseOf.get(id)!;
      const base = bases.get(knowledgeBaseId);
      // A base deleted since its index was read answers nothing, as the SQL join would.
      if (!base) continue;
      const bm25 = bm25s[i]!;
      candidates.push({
        id,
        knowledgeBaseId,
        cosine: vectorLeg?.cosineOf.get(id) ?? 0,
        bm25,
        reference,
        base,
      });
    }
    return candidates;
  }

  return {
    /**
     * The hybrid search's rows from memory, or null when an index of a
     * searched base is not current with the version just read (the caller
     * then searches in the database; the stale index is being updated).
     */
    async search(query: HybridQuery): Promise<HybridRow[] | null> {
      const candidates = await candidatesOf(query);
      if (!candidates) return null;
      const departments = query.departmentIds ? new Set(query.departmentIds) : null;
      const allowed: HybridCandidate[] = candidates
        .filter((c) => !departments || departments.has(c.base.departmentId))
        .map((c) =>
          scoreCandidate({
            id: c.id,
            knowledgeBaseId: c.knowledgeBaseId,
            departmentId: c.base.departmentId,
            cosine: c.cosine,
            bm25: c.bm25,
            reference: c.reference,
            ragWeights: c.base.ragWeights,
          }),
        );
      const shortlist = shortlistOf(allowed, query.shortlist);
      if (shortlist.length === 0) return [];
      const read = await readChunks({
        ids: shortlist.map((c) => c.id),
        knowledgeBaseIds: query.knowledgeBaseIds,
      });
      const message = new Set(trigramsOf(query.text.slice(0, TRIGRAM_TEXT_MAX)));
      const chunks = new Map<string, ShortlistedChunk>();
      for (const c of shortlist) {
        const chunk = read.get(c.id);
        if (!chunk) continue;
        chunks.set(c.id, {
          documentId: chunk.documentId,
          title: chunk.title,
          content: chunk.content,
          chunkIndex: Number(chunk.chunkIndex),
          headingPath: chunk.headingPath,
          scannedBy: chunk.scannedBy,
          // Floored at bm25n, which skips the search when it cannot win: rankRows keeps the greater anyway.
          trigram: wordSimilarityOver(message, profileOf(chunk.content), c.bm25n),
        });
      }
      return rankRows(shortlist, chunks);
    },
  };
}

export type MemorySearch = ReturnType<typeof createMemorySearch>;
