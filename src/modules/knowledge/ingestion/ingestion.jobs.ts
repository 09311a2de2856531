import type { QueueDriver } from '../../../core/queue/queue.js';
import type { IngestionService } from './ingestion.service.js';

export const INGEST_QUEUE = 'knowledge-ingest';

/** The job payload: the document id only; the handler loads the rest. */
export interface IngestJobData {
  documentId: string;
}

/**
 * Consumes `knowledge-ingest`. The queue retries a job that throws, and runs
 * again one whose process died or stalled, up to JOB_MAX_STALLS times; after
 * the last try, or the stall past that limit, the document is marked failed
 * with the reason.
 * OCR and PDF rendering are CPU-bound, hence one job at a time per process.
 */
export function startIngestionWorker(queue: QueueDriver, ingestion: IngestionService): void {
  queue.process<IngestJobData>(INGEST_QUEUE, (job) => ingestion.ingest(job.data.documentId, job.id), {
    concurrency: 1,
    onFailed: (job, error) => ingestion.failAfterRetries(job.data.documentId, job.id, error),
  });
}
