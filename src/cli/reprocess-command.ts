import { createDocumentFiles } from '../modules/knowledge/document-files.js';
import { createDocumentsRepository } from '../modules/knowledge/documents.repository.js';
import { createIngestionModule } from '../modules/knowledge/ingestion/ingestion.module.js';
import { createKnowledgeBasesRepository } from '../modules/knowledge/knowledge-bases.repository.js';
import { rechunkDocuments } from '../modules/knowledge/rechunk.js';
import type { NotificationsPort } from '../modules/notifications/notifications.service.js';
import { withEmbeddingDatabase } from './command-database.js';
import type { CommandOutput } from './command-output.js';

export const REPROCESS_USAGE = `Usage: npm run reprocess -- --all

Re-chunks every stored document with the current chunking: each document is
read again from its stored file (a URL document is fetched again), split into
passages by its headings, paragraphs, list items and table rows, scanned,
embedded and indexed, and its old chunks are replaced. Run it after an
upgrade that changes chunking or what a chunk is indexed under (the heading
path). Uploaders are not notified. A document that can no longer be read
ends failed with the reason, as an upload would. The database is the
configured one: DATABASE_URL, else the embedded database under DATA_DIR
(stop the service first: the embedded database has one user at a time, and
the command refuses one that a running process holds).`;

/** Re-chunking is maintenance: the uploaders heard about their documents when they were uploaded. */
const silentNotifications: NotificationsPort = {
  notify: async () => [],
  publish: async () => undefined,
};

/**
 * The whole command: open and migrate the configured database, re-chunk
 * every document one at a time, print each outcome and the totals. Answers
 * the exit code (0 ok, 1 failure, 2 bad usage); never throws for a problem it
 * can describe.
 */
export async function runReprocess(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: CommandOutput,
): Promise<number> {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) {
    output.out(REPROCESS_USAGE);
    return 0;
  }
  const unknown = argv.filter((arg) => arg !== '--all');
  if (unknown.length > 0 || argv.length === 0) {
    const problem = unknown.length > 0 ? `Unknown argument ${unknown.join(', ')}` : 'Say --all';
    output.err(`${problem}\n\n${REPROCESS_USAGE}`);
    return 2;
  }
  return withEmbeddingDatabase(env, output, async ({ config, database, llm }) => {
    const { embeddings } = llm;
    const db = database.db;
    const documents = createDocumentsRepository(db);
    const ingestion = createIngestionModule({
      db,
      embeddings,
      config,
      notifications: silentNotifications,
      logger: { info: () => undefined, warn: () => undefined },
      documents,
      bases: createKnowledgeBasesRepository(db),
      files: createDocumentFiles(config.dataDir),
      // A knowledge base's syntheticQuestions option asks the configured model, as ingestion does.
      syntheticQuestions: { writer: llm.mode === 'configured' ? llm.chat : null },
    });
    const ids = await documents.listAllIds();
    output.out(`${ids.length} documents to re-chunk`);
    const totals = await rechunkDocuments({ db, documents, ingestion }, ids, (result) => {
      const name = `${result.id} (${result.title ?? 'untitled'})`;
      if (result.outcome === 'ready') output.out(`${name}: ${result.chunks ?? 0} chunks`);
      else if (result.outcome === 'failed')
        output.err(`${name}: failed: ${result.error ?? 'unknown reason'}`);
      else
        output.out(
          `${name}: skipped (${result.outcome === 'gone' ? 'deleted meanwhile' : 'changed meanwhile'})`,
        );
    });
    // A document that cannot be read is the document's problem, listed above; the command itself succeeded.
    output.out(
      `done: ${totals.ready} re-chunked, ${totals.failed} failed, ${totals.gone + totals.stale} skipped`,
    );
    return 0;
  });
}
