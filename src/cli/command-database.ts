import type { Config } from '../core/config/config.js';
import type { DatabaseHandle } from '../core/db/client.js';
import { alignEmbeddingDimensions } from '../core/db/embedding-dimensions.js';
import { createLlmProviders } from '../core/llm/index.js';

/**
 * What a command that embeds text needs of a database it opened: the
 * migrations applied, the vector columns at the configured size (as the
 * service's start leaves them), and the configured model providers (the
 * offline embedder without LLM_API_KEY). The caller keeps and closes the
 * handle, so a failure here still closes it.
 */
export async function prepareForEmbedding(database: DatabaseHandle, config: Config) {
  await database.migrate();
  await alignEmbeddingDimensions(database.db, config.embeddingDimensions);
  return createLlmProviders(config);
}
