import { createWorkLimit } from '../concurrency/work-limit.js';
import type { Config } from '../config/config.js';
import { createExtractiveResponder } from './extractive-responder.js';
import type { LlmProviders } from './llm.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOpenAiChat, createOpenAiEmbeddings, type ModelCallObserver } from './openai-compatible.js';

export type {
  ChatMessage,
  ChatProvider,
  ChatResult,
  ContextPassage,
  EmbeddingProvider,
  LlmProviders,
} from './llm.js';
export { EmbeddingDimensionError, LlmProviderError } from './llm.js';
export type { ModelCallObserver } from './openai-compatible.js';

/**
 * The providers the configuration asks for: the OpenAI-compatible API when
 * LLM_API_KEY is set, else the offline pair (local lexical embedder and
 * extractive responder). Production refuses to start without a key (config).
 * The API's chat and embeddings share one limit of LLM_MAX_CONCURRENCY
 * requests in flight for the process.
 */
export function createLlmProviders(
  config: Pick<Config, 'llm' | 'embeddingDimensions'>,
  options: { maxRetries?: number; observer?: ModelCallObserver } = {},
): LlmProviders {
  const { apiKey, baseUrl, model, embeddingModel } = config.llm;
  if (!apiKey) {
    return {
      mode: 'offline',
      embeddings: createLocalEmbedder(config.embeddingDimensions),
      chat: createExtractiveResponder(),
    };
  }
  const limit = createWorkLimit(config.llm.maxConcurrency);
  const connection = { apiKey, baseUrl, limit, ...options };
  return {
    mode: 'configured',
    embeddings: createOpenAiEmbeddings({
      ...connection,
      model: embeddingModel,
      dimensions: config.embeddingDimensions,
      encoding: config.llm.embeddingEncoding,
    }),
    chat: createOpenAiChat({ ...connection, model }),
  };
}
