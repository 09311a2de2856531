import type { EmbeddingProvider } from '../../core/llm/llm.js';
import type { IntentExamplesRepository } from './intent-examples.repository.js';
import { type Classification, UNKNOWN_INTENT, VOTING_NEIGHBOURS, voteIntent } from './intent-vote.js';

/**
 * Classifies a message against a namespace's stored examples: the
 * {@link VOTING_NEIGHBOURS} nearest examples by cosine similarity vote (see
 * `voteIntent`). No access checks: callers (the HTTP service, the pipeline)
 * decide scope.
 */
export function createIntentClassifier(deps: {
  examples: IntentExamplesRepository;
  embeddings: EmbeddingProvider;
}) {
  return {
    /**
     * `{ intent, confidence, alternatives }` for `text` in the namespace.
     * With `embedding` (the message's vector, already computed) the provider
     * is not called. A text without words (a zero vector) or a namespace
     * without examples answers `unknown` with confidence 0.
     * @throws LlmProviderError when the embedding provider fails.
     */
    async classify(namespaceId: string, text: string, embedding?: number[]): Promise<Classification> {
      const vector = embedding ?? (await deps.embeddings.embed([text]))[0];
      if (!vector?.some((v) => v !== 0)) return { intent: UNKNOWN_INTENT, confidence: 0, alternatives: [] };
      return voteIntent(await deps.examples.nearest(namespaceId, vector, VOTING_NEIGHBOURS));
    },
  };
}

export type IntentClassifier = ReturnType<typeof createIntentClassifier>;
