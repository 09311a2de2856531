import { MIN_ANSWER_SCORE } from '../../core/llm/extractive-responder.js';
import type { EmbeddingProvider } from '../../core/llm/llm.js';
import { memoiseByText } from '../../core/memo.js';
import { answerConfidences } from './answer-confidence.js';
import type { KnowledgeBaseSnapshot } from './hybrid-search.js';
import { DETECTOR_FINGERPRINT, detectInjection, type InjectionVerdict } from './injection-detection.js';
import { expandQuery } from './query-expansion.js';
import type { HybridRow, RagRepository } from './rag.repository.js';
import { finalScore, verbatimCheck } from './scoring.js';

/** A retrieved chunk that may go into a prompt. */
export interface RetrievedChunk {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  departmentId: string;
  title: string;
  content: string;
  chunkIndex: number;
  /** The section headings the chunk sits under, outermost first (empty when unknown). */
  headingPath: string[];
  /** Final score in [0, 1]: the blended score, lifted for a word-for-word repeat. */
  score: number;
  /** The legs' rank fusion (hybrid-search.ts `fuseRanks`): chunks are ordered by it. */
  fused: number;
  cosine: number;
  keyword: number;
  /** The message repeats one of this chunk's sentences word for word. */
  verbatim: boolean;
}

/** A retrieved chunk left out because it carries a prompt injection. */
export interface InjectedChunk extends RetrievedChunk {
  reason: string;
  /** The detector's whole verdict (family and score where the detector gives them). */
  verdict: InjectionVerdict;
}

/** A clean retrieved chunk with its answer confidence. */
export interface AnsweredChunk extends RetrievedChunk {
  /**
   * How likely the chunk answers the message, in [0, 1] (answer-confidence.ts):
   * its score calibrated with the answer evidence; the 0.7 line reads this.
   */
  confidence: number;
}

export interface RetrievalResult {
  /** Clean chunks, best first (the fusion's order), at most `limit`. */
  hits: AnsweredChunk[];
  /** Chunks that ranked among the best but were left out as prompt injections. */
  injected: InjectedChunk[];
  /**
   * The answer confidence of the best-answering clean chunk among the first
   * {@link ANSWER_CANDIDATES} (the passages the offline responder quotes
   * from); 0 when none was retrieved.
   */
  confidence: number;
  /** The message's embedding the search used (given or computed); null when nothing was searched. */
  embedding: number[] | null;
}

/**
 * Chunk texts (titles and contents) whose injection verdict is kept per
 * process. A chunk's text does not change (reprocessing writes new chunks),
 * the detector is a pure function of the text, and the same popular chunks
 * and titles come back for many messages: each is scanned once instead of
 * on every search.
 */
export const CHUNK_VERDICT_CACHE_SIZE = 5000;

/** The confidence line (DECISIONS.md): below it the expanded query is tried, and kept only when it clears it. */
export const ANSWER_LINE = MIN_ANSWER_SCORE;

/** The first hits whose best answer confidence is the result's confidence (the responder quotes from as many). */
export const ANSWER_CANDIDATES = 3;

export interface RetrievalOptions {
  /** Top-N of each leg (default 40). */
  candidates?: number;
  /** HNSW `ef_search` (default 100; raised to `candidates` when lower). */
  efSearch?: number;
  /** Candidates fully scored, pg_trgm included (default 10; at least `limit`). */
  shortlist?: number;
}

export interface SearchInput {
  text: string;
  /** The knowledge bases the caller or namespace may use; nothing else is read. */
  knowledgeBaseIds: readonly string[];
  /** Optional second fence: only knowledge bases of these departments. */
  departmentIds?: readonly string[];
  /** Chunks answered (default 5). */
  limit?: number;
  /** The message's embedding when the caller has it already: the provider is then not called. */
  embedding?: number[];
  /** The searched bases' versions and weights when the caller read them already (see `HybridQuery.bases`). */
  bases?: readonly KnowledgeBaseSnapshot[];
}

/**
 * The retrieval engine: embeds the message, runs the hybrid query over the
 * given knowledge bases, lifts word-for-word repeats, screens every chunk
 * that made the cut for prompt injection and answers the clean ones with a
 * confidence. Shared by `/rag/draft` and the assistant pipeline.
 */
export function createRetrieval(deps: {
  rag: RagRepository;
  embeddings: EmbeddingProvider;
  options?: RetrievalOptions;
}) {
  const candidates = deps.options?.candidates ?? 40;
  const efSearch = deps.options?.efSearch ?? 100;
  const shortlist = deps.options?.shortlist ?? 10;
  // A chunk is a stored document's text: judged as ingestion judges it (the document threshold).
  const verdictOf = memoiseByText(
    (text) => detectInjection(text, { kind: 'document' }),
    CHUNK_VERDICT_CACHE_SIZE,
  );
  /**
   * A retrieved chunk's verdict: its title (which reaches the prompt too),
   * then its content. The content is not scanned again when the running
   * detector's ingestion scan already passed it: a served chunk's content
   * never changes, and that scan judged the same text the same way. Chunks
   * stored before, or by another detector, are scanned here.
   */
  const chunkVerdict = (chunk: RetrievedChunk, scannedBy: string | null): InjectionVerdict => {
    const title = verdictOf(chunk.title);
    if (title.detected || scannedBy === DETECTOR_FINGERPRINT) return title;
    return verdictOf(chunk.content);
  };
  return {
    /**
     * Searches the given knowledge bases. An empty list or a message without
     * words answers no hits and confidence 0. Answers the embedding it used,
     * so a caller that needs the message's vector too does not compute it again.
     * @throws LlmProviderError when the embedding provider fails.
     */
    async search(input: SearchInput): Promise<RetrievalResult> {
      const limit = input.limit ?? 5;
      // The message's own keyword terms, and with its workplace concepts' other names (en/uk/ru).
      const { own, terms, names } = expandQuery(input.text);
      if (input.knowledgeBaseIds.length === 0 || own.length === 0) {
        return { hits: [], injected: [], confidence: 0, embedding: null };
      }
      const embedding = input.embedding ?? (await deps.embeddings.embed([input.text]))[0] ?? null;
      const searchWith = async (terms: readonly string[], vector: number[] | null) => {
        const usable = vector?.some((v) => v !== 0) ? vector : null;
        const rows = await deps.rag.hybridSearch(
          {
            embedding: usable,
            text: input.text,
            terms,
            knowledgeBaseIds: input.knowledgeBaseIds,
            departmentIds: input.departmentIds,
            bases: input.bases,
            // Each leg proposes at least as many chunks as are asked for (`/rag/draft` takes up to 50).
            candidates: Math.max(candidates, limit),
            shortlist: Math.max(shortlist, limit),
          },
          efSearch,
        );
        const scannedBy = new Map(rows.map((row) => [row.chunkId, row.scannedBy]));
        const repeats = verbatimCheck(input.text);
        const ranked = rows.map((row) => toChunk(row, repeats)).sort(byScore);
        const hits: RetrievedChunk[] = [];
        const injected: InjectedChunk[] = [];
        for (const chunk of ranked) {
          if (hits.length >= limit) break;
          const verdict = chunkVerdict(chunk, scannedBy.get(chunk.chunkId) ?? null);
          if (verdict.detected)
            injected.push({ ...chunk, reason: verdict.reason ?? 'prompt injection', verdict });
          else hits.push(chunk);
        }
        const confidences = answerConfidences(input.text, hits);
        const answered = hits.map((hit, i) => ({ ...hit, confidence: confidences[i] ?? 0 }));
        const confidence = Math.max(0, ...answered.slice(0, ANSWER_CANDIDATES).map((hit) => hit.confidence));
        return { hits: answered, injected, confidence, embedding };
      };
      const found = await searchWith(own, embedding);
      if (found.confidence >= ANSWER_LINE || terms.length === own.length) return found;
      // Query expansion is a second chance: the message's own words rank best when they answer
      // (eval:retrieval), the concepts' other names (en/uk/ru) find the passage written with
      // other words or in another language. A lexical embedder (the offline one) matches words,
      // not meanings, so its vector gets the names too; a model embedder places them together itself.
      const vector = deps.embeddings.lexical
        ? ((await deps.embeddings.embed([`${input.text}\n${names.join('\n')}`]))[0] ?? embedding)
        : embedding;
      const expanded = await searchWith(terms, vector);
      return expanded.confidence >= ANSWER_LINE ? expanded : found;
    },
  };
}

function toChunk(
  { scannedBy: _scannedBy, ...row }: HybridRow,
  repeats: (chunkContent: string) => boolean,
): RetrievedChunk {
  const verbatim = repeats(row.content);
  return { ...row, verbatim, score: finalScore(row.score, verbatim) };
}

/**
 * The ranking: chunks that the message repeats word for word first (the
 * strongest evidence), then the fusion's order, then the score.
 */
function byScore(a: RetrievedChunk, b: RetrievedChunk): number {
  return (
    Number(b.verbatim) - Number(a.verbatim) ||
    b.fused - a.fused ||
    b.score - a.score ||
    a.chunkId.localeCompare(b.chunkId)
  );
}

export type Retrieval = ReturnType<typeof createRetrieval>;
