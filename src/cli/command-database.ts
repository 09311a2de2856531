import { type Config, ConfigError, loadConfig } from '../core/config/config.js';
import { type DatabaseHandle, openDatabase } from '../core/db/client.js';
import { alignEmbeddingDimensions } from '../core/db/embedding-dimensions.js';
import { createLlmProviders } from '../core/llm/index.js';
import { embedderVersion } from '../core/llm/llm.js';
import type { CommandOutput } from './command-output.js';

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

/** What {@link withEmbeddingDatabase} hands the command's work. */
export interface EmbeddingDatabase {
  config: Config;
  database: DatabaseHandle;
  llm: Awaited<ReturnType<typeof createLlmProviders>>;
}

/**
 * The frame of a command that embeds: load the configuration, open and prepare the configured
 * database ({@link prepareForEmbedding}), say which database and embedder it uses, run `work`,
 * and close the database whatever happens. A failure it can describe is printed and answers
 * exit code 1; `work` answers the exit code otherwise.
 */
export async function withEmbeddingDatabase(
  env: Record<string, string | undefined>,
  output: CommandOutput,
  work: (opened: EmbeddingDatabase) => Promise<number>,
): Promise<number> {
  let database: DatabaseHandle | null = null;
  try {
    const config = loadConfig(env);
    database = await openDatabase(config);
    const llm = await prepareForEmbedding(database, config);
    output.out(
      `database: ${database.driver} (${database.location}); embedder: ${embedderVersion(llm.embeddings)}`,
    );
    return await work({ config, database, llm });
  } catch (error) {
    output.err(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await database?.close();
  }
}
