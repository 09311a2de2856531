import { type EmbeddingProvider, embedderVersion } from '../../core/llm/llm.js';
import type { IntentClassifier } from './intent-classifier.js';
import type { IntentExamplesRepository } from './intent-examples.repository.js';
import { EMBEDDING_BATCH } from './intents.service.js';

/** What one re-embedding pass did. */
export interface ReembedResult {
  /** Rows given a vector of the current embedder by this pass. */
  updated: number;
  /** Whether rows may remain (the pass stopped at its `maxRows`). */
  more: boolean;
}

/**
 * Re-embeds intent examples whose vector another embedder made (the stored
 * `embedder` differs from the configured provider's version, or is null), so
 * the classifier compares a message with examples of the same vector space.
 * Walks the table by id in batches of {@link EMBEDDING_BATCH} phrases (one
 * provider call and one UPDATE each), at most `maxRows` rows per pass.
 * Idempotent and safe beside another runner: a row already at the current
 * version is neither selected nor overwritten. Each namespace touched has its
 * example mark moved, so in-memory copies reload.
 * @throws LlmProviderError when the embedding provider fails (batches already stored stay).
 */
export async function reembedOutdatedExamples(
  deps: { examples: IntentExamplesRepository; embeddings: EmbeddingProvider; classifier: IntentClassifier },
  options: { maxRows?: number; onBatch?: (updated: number) => void } = {},
): Promise<ReembedResult> {
  const version = embedderVersion(deps.embeddings);
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  let afterId: string | null = null;
  let seen = 0;
  let updated = 0;
  while (seen < maxRows) {
    const rows = await deps.examples.outdated(version, afterId, Math.min(EMBEDDING_BATCH, maxRows - seen));
    if (rows.length === 0) return { updated, more: false };
    seen += rows.length;
    afterId = rows.at(-1)!.id;
    const vectors = await deps.embeddings.embed(rows.map((row) => row.exampleText));
    const done = new Set(
      await deps.examples.setEmbeddings(
        rows.map((row, i) => ({ id: row.id, embedding: vectors[i]! })),
        version,
      ),
    );
    updated += done.size;
    const namespaces = new Set(rows.filter((row) => done.has(row.id)).map((row) => row.namespaceId));
    for (const namespaceId of namespaces) await deps.classifier.examplesChanged(namespaceId);
    options.onBatch?.(updated);
  }
  const rest = await deps.examples.outdated(version, afterId, 1);
  return { updated, more: rest.length > 0 };
}
