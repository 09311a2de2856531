import type { Database } from '../../core/db/client.js';
import { ingestionOf, ingestJobId, queuedMetadata } from './document-metadata.js';
import type { DocumentsRepository } from './documents.repository.js';
import type { IngestionService, IngestOutcome } from './ingestion/ingestion.service.js';

/** What {@link rechunkDocuments} did, by outcome. */
export type RechunkTotals = Record<IngestOutcome, number>;

/** One document's re-chunking: its outcome, and the chunk count or failure reason it ended with. */
export interface RechunkResult {
  id: string;
  title: string | null;
  outcome: IngestOutcome;
  chunks: number | null;
  error: string | null;
}

/**
 * Re-chunks documents one at a time, in this process, exactly as reprocessing
 * one does (extract, chunk, scan, embed, replace the chunks): each is put
 * back to pending with a new run, then that run is ingested at once. A run a
 * worker had queued before becomes stale and does nothing. A document that
 * cannot be read ends failed with its reason, as an upload would.
 * @throws for passing errors (database, embedding provider): that document is
 *   failed with the reason, those done before stay done, those after are untouched.
 */
export async function rechunkDocuments(
  deps: {
    db: Database;
    documents: DocumentsRepository;
    ingestion: Pick<IngestionService, 'ingest' | 'failAfterRetries'>;
  },
  ids: readonly string[],
  onDocument?: (result: RechunkResult) => void,
): Promise<RechunkTotals> {
  const { db, documents, ingestion } = deps;
  const totals: RechunkTotals = { ready: 0, failed: 0, stale: 0, gone: 0 };
  for (const id of ids) {
    const jobId = await db.transaction(async (tx) => {
      const row = await documents.findForUpdate(id, tx);
      if (!row) return null;
      const metadata = queuedMetadata(row.metadata, new Date());
      await documents.update(id, { status: 'pending', metadata }, tx);
      return ingestJobId(id, ingestionOf(metadata).run);
    });
    let outcome: IngestOutcome = 'gone';
    if (jobId) {
      try {
        outcome = await ingestion.ingest(id, jobId);
      } catch (error) {
        // No queue will retry this run: the document is failed with the reason rather than left processing.
        await ingestion.failAfterRetries(id, jobId, error as Error);
        throw error;
      }
    }
    totals[outcome]++;
    if (onDocument) {
      const row = await documents.findById(id);
      const metadata = (row?.metadata ?? {}) as { error?: unknown; ingestion?: { chunkCount?: unknown } };
      onDocument({
        id,
        title: row?.title ?? null,
        outcome,
        chunks: typeof metadata.ingestion?.chunkCount === 'number' ? metadata.ingestion.chunkCount : null,
        error: typeof metadata.error === 'string' ? metadata.error : null,
      });
    }
  }
  return totals;
}
