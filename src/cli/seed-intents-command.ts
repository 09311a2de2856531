import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig } from '../core/config/config.js';
import { type DatabaseHandle, openDatabase } from '../core/db/client.js';
import { describeSummary, parseSeedFile, SeedFileError } from '../modules/intents/intent-seeding.js';
import { createIntentsModule } from '../modules/intents/intents.module.js';
import { prepareForEmbedding } from './command-database.js';
import { type CommandOutput, UsageError } from './command-output.js';

export const SEED_USAGE = `Usage: npm run seed:intents -- <file.json>

Loads intent example phrases into namespaces. The file holds
  { "namespace": "<namespace id or name>", "intents": { "<intentName>": ["phrase", ...] } }
or a list of such blocks. Phrases already stored are skipped. The database is
the configured one: DATABASE_URL, else the embedded database under DATA_DIR
(stop the service first: the embedded database has one user at a time,
and the command refuses one that a running process holds).`;

/** What the command line asks for. */
export type SeedArgs = { help: true } | { help: false; file: string };

/** A command line the command does not understand; the message says why. */
/** `[--help | -h] <file.json>`: exactly one file. */
export function parseSeedArgs(argv: readonly string[]): SeedArgs {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return { help: true };
  const unknown = argv.filter((arg) => arg.startsWith('-'));
  if (unknown.length > 0) throw new UsageError(`Unknown option ${unknown.join(', ')}`);
  if (argv.length === 0) throw new UsageError('Name the seed file');
  if (argv.length > 1) throw new UsageError(`Name one seed file, not ${argv.length}`);
  return { help: false, file: argv[0]! };
}

/**
 * The whole command: parse the arguments and the file, open and migrate the
 * configured database, seed, print the summary. Answers the exit code (0 ok,
 * 1 failure, 2 bad usage); never throws for a problem it can describe.
 */
export async function runSeedIntents(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: CommandOutput,
): Promise<number> {
  let args: SeedArgs;
  try {
    args = parseSeedArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`${error.message}\n\n${SEED_USAGE}`);
    return 2;
  }
  if (args.help) {
    output.out(SEED_USAGE);
    return 0;
  }
  let blocks: ReturnType<typeof parseSeedFile>;
  let config: ReturnType<typeof loadConfig>;
  try {
    const file = path.resolve(args.file);
    blocks = parseSeedFile(JSON.parse(await readFile(file, 'utf8')) as unknown);
    config = loadConfig(env);
  } catch (error) {
    output.err(describe(error));
    return 1;
  }

  let database: DatabaseHandle | null = null;
  try {
    database = await openDatabase(config);
    const { embeddings } = await prepareForEmbedding(database, config);
    output.out(`database: ${database.driver} (${database.location}); embeddings: ${embeddings.name}`);
    const intents = createIntentsModule({ db: database.db, embeddings });
    const summary = await intents.seeder.seed(blocks, output.out);
    for (const line of describeSummary(summary)) output.out(line);
    return 0;
  } catch (error) {
    output.err(describe(error));
    return 1;
  } finally {
    await database?.close();
  }
}

function describe(error: unknown): string {
  if (error instanceof SeedFileError || error instanceof ConfigError) return error.message;
  if (error instanceof SyntaxError) return `The seed file is not JSON: ${error.message}`;
  if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
    return `No such file: ${(error as Error & { path?: string }).path ?? ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
