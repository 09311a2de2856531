import type { QueueDriver } from '../../../core/queue/queue.js';
import type { IngestionService } from './ingestion.service.js';

export const INGEST_QUEUE = 'knowledge-ingest';

/** The job payload: the document id only; the handler loads the rest. */
export interface IngestJobData {
  documentId: string;
}

/**
 * Consumes `knowledge-ingest`. The queue retries a job that throws (a crashed
 * worker's job too); after the last try the document is marked failed.
 * OCR and PDF rendering are CPU-bound, hence one job at a time per process.
 */
export function startIngestionWorker(queue: QueueDriver, ingestion: IngestionService): void {
  queue.process<IngestJobData>(INGEST_QUEUE, (job) => ingestion.ingest(job.data.documentId, job.id), {
    concurrency: 1,
    onFailed: (job, error) => ingestion.failAfterRetries(job.data.documentId, job.id, error),
  });
}
