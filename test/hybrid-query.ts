import { createLocalEmbedder } from '../src/core/llm/local-embedder.js';
import type { HybridQuery } from '../src/modules/rag/rag.repository.js';
import { queryKeywordTerms } from '../src/modules/rag/text-analysis.js';

/**
 * The hybrid query retrieval would build for `text` over `knowledgeBaseIds`, embedded by the
 * offline embedder at `dimensions` (the test app's EMBEDDING_DIMENSIONS): 40 candidates, 10 kept.
 */
export function hybridQueryOf(
  dimensions: number,
  knowledgeBaseIds: string[],
  text: string,
  extra: Partial<HybridQuery> = {},
): HybridQuery {
  return {
    embedding: createLocalEmbedder(dimensions).embedOne(text),
    text,
    terms: queryKeywordTerms(text),
    knowledgeBaseIds,
    candidates: 40,
    shortlist: 10,
    ...extra,
  };
}
