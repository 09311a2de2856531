/**
 * The LLM seam. Two implementations of each: an OpenAI-compatible client
 * (LLM_BASE_URL, LLM_API_KEY) and an offline one used when no key is set.
 * A custom provider implements the same interfaces.
 */

export interface EmbeddingProvider {
  /** `openai-compatible` or `local`. */
  readonly name: string;
  /** Length of every vector returned; equals EMBEDDING_DIMENSIONS. */
  readonly dimensions: number;
  /**
   * Which embedder made a vector, stored beside it (e.g. `local-v2:1536`,
   * `text-embedding-3-small:1536`): vectors of another version are
   * re-embedded (`npm run reindex`). Default: `<name>:<dimensions>`.
   */
  readonly version?: string;
  /**
   * The cosine similarity at or above which two of this embedder's vectors
   * say the same thing (an intent example and a message asking for it).
   * The intent vote reads similarities relative to it. Default 1 (raw cosine).
   */
  readonly matchSimilarity?: number;
  /**
   * True when the vectors reflect the words of a text rather than its meaning (the offline
   * embedder): a query expanded with synonyms must then be embedded with them, as a meaning
   * embedder places synonyms together by itself. Default false.
   */
  readonly lexical?: boolean;
  /**
   * One vector per text, in order. Callers batch (32 texts per call); the
   * implementation retries 429 and 5xx with backoff.
   * @throws Error when the provider answers vectors of another dimension.
   */
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** The version recorded with the vectors `provider` makes (see {@link EmbeddingProvider.version}). */
export function embedderVersion(
  provider: Pick<EmbeddingProvider, 'name' | 'dimensions' | 'version'>,
): string {
  return provider.version ?? `${provider.name}:${provider.dimensions}`;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * False when the provider reported no usage (some OpenAI-compatible servers leave it out):
   * the counts are then 0 and mean "not known", not "free".
   */
  known: boolean;
}

export interface ChatResult {
  text: string;
  usage: ChatUsage;
  provider: string;
  model: string;
  latencyMs: number;
}

/** A passage handed to the chat provider; the offline responder builds its answer from these. */
export interface ContextPassage {
  id: string;
  title: string;
  content: string;
  /**
   * The passage's answer confidence in [0, 1] (retrieval's calibrated
   * confidence, compared with the 0.7 line): the offline responder quotes
   * the best passages by it and answers only when the best reaches the line.
   */
  score: number;
  /** The section headings the passage sits under, outermost first (cited as `title › path`). */
  headingPath?: readonly string[];
}

export interface ChatProvider {
  /** `openai-compatible` or `offline`. */
  readonly name: string;
  readonly model: string;
  /** Answers the conversation, grounded in `passages` when given. */
  complete(input: {
    messages: readonly ChatMessage[];
    passages?: readonly ContextPassage[];
    /** Cancels the request (and its retries), e.g. when the agent task runs out of time. */
    signal?: AbortSignal;
  }): Promise<ChatResult>;
}

/** The two providers the service runs with, chosen together (see core/llm/index.ts). */
export interface LlmProviders {
  /** `configured` with LLM_API_KEY, `offline` without: local embedder and extractive responder. */
  readonly mode: 'configured' | 'offline';
  readonly embeddings: EmbeddingProvider;
  readonly chat: ChatProvider;
}

/** The provider did not answer usefully: it failed after its retries, or its answer is unusable. */
export class LlmProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The embedding provider answered vectors whose length is not EMBEDDING_DIMENSIONS. */
export class EmbeddingDimensionError extends LlmProviderError {
  constructor(
    readonly expected: number,
    readonly actual: number,
    readonly model: string,
  ) {
    super(
      `Embedding model "${model}" returned ${actual}-dimensional vectors, but EMBEDDING_DIMENSIONS is ${expected}. ` +
        `Set EMBEDDING_DIMENSIONS=${actual} (the embedding columns are re-typed at start while they hold no vectors) ` +
        `or choose an embedding model that produces ${expected} dimensions.`,
    );
  }
}
