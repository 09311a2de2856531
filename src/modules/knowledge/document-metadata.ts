/**
 * A document's `metadata` holds the caller's own keys plus three the service
 * writes: `error` (why ingestion failed), `ingestion` (run
 * number and what the last run found) and `fileName` (the uploaded file's
 * name). Pure helpers over that object.
 */

export const RESERVED_METADATA_KEYS = ['error', 'ingestion', 'fileName'] as const;

export interface IngestionInfo {
  /** Bumped by every (re)queue; the job id carries it, so a stale job recognises itself. */
  run: number;
  queuedAt?: string;
  startedAt?: string;
  finishedAt?: string;
  [key: string]: unknown;
}

type Metadata = Record<string, unknown>;

export function ingestionOf(metadata: Metadata): IngestionInfo {
  const info = metadata.ingestion;
  if (info && typeof info === 'object' && typeof (info as IngestionInfo).run === 'number') {
    return info as IngestionInfo;
  }
  return { run: 0 };
}

/** The queue job id of a document's run: deterministic, so queueing a run twice is a no-op; no ':'. */
export function ingestJobId(documentId: string, run: number): string {
  return `ingest-${documentId}-${run}`;
}

/** Metadata for a new run: the next run number, the last error gone. */
export function queuedMetadata(metadata: Metadata, now: Date): Metadata {
  const { error: _error, ...rest } = metadata;
  return { ...rest, ingestion: { run: ingestionOf(metadata).run + 1, queuedAt: now.toISOString() } };
}

/** The caller's keys replaced by `own`, the service's keys kept. */
export function withOwnMetadata(metadata: Metadata, own: Metadata): Metadata {
  const kept: Metadata = {};
  for (const key of RESERVED_METADATA_KEYS) if (key in metadata) kept[key] = metadata[key];
  return { ...own, ...kept };
}

/** Metadata after a run ended: `details` merged into `ingestion`, `error` set or cleared. */
export function finishedMetadata(
  metadata: Metadata,
  details: Record<string, unknown>,
  error: string | null,
  now: Date,
): Metadata {
  const { error: _error, ...rest } = metadata;
  const ingestion = { ...ingestionOf(metadata), ...details, finishedAt: now.toISOString() };
  return error === null ? { ...rest, ingestion } : { ...rest, ingestion, error };
}
