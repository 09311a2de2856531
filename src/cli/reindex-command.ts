import { createIntentsModule } from '../modules/intents/intents.module.js';
import { runIndexUpkeep } from '../workers/index-upkeep.js';
import { withEmbeddingDatabase } from './command-database.js';
import type { CommandOutput } from './command-output.js';

export const REINDEX_USAGE = `Usage: npm run reindex

Brings stored search data up to date with the configured embedder: chunks and
intent examples whose vectors another embedder made (or an unrecorded one) are
re-embedded, and chunks stored before the keyword index existed get their
terms. Rows already up to date are not touched, so running it again changes
nothing. The database is the configured one: DATABASE_URL, else the embedded
database under DATA_DIR (stop the service first: the embedded database has one
user at a time, and the command refuses one that a running process holds).
The worker run modes do the same at start, bounded per pass.`;

/**
 * The whole command: open and migrate the configured database, bring every
 * outdated row up to date (no bound), print what was done. Answers the exit
 * code (0 ok, 1 failure, 2 bad usage); never throws for a problem it can describe.
 */
export async function runReindex(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: CommandOutput,
): Promise<number> {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) {
    output.out(REINDEX_USAGE);
    return 0;
  }
  if (argv.length > 0) {
    output.err(`Unknown argument ${argv.join(', ')}\n\n${REINDEX_USAGE}`);
    return 2;
  }
  return withEmbeddingDatabase(env, output, async ({ database, llm: { embeddings } }) => {
    const intents = createIntentsModule({ db: database.db, embeddings });
    const result = await runIndexUpkeep(
      {
        db: database.db,
        embeddings,
        examples: intents.repositories.examples,
        classifier: intents.classifier,
      },
      { log: output.out },
    );
    output.out(
      `done: ${result.chunks} chunks and ${result.intentExamples} intent examples re-embedded, ` +
        `${result.keywordTerms} chunks given keyword terms`,
    );
    return 0;
  });
}
