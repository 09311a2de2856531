import type { Database, Transaction } from '../../../core/db/client.js';
import type { EmbeddingProvider } from '../../../core/llm/llm.js';
import { EmbeddingDimensionError, embedderVersion } from '../../../core/llm/llm.js';
import { notificationTexts } from '../../notifications/notification-texts.js';
import type { NotificationsPort, PendingNotifications } from '../../notifications/notifications.service.js';
import { DETECTOR_FINGERPRINT } from '../../rag/injection-detection.js';
import { keywordIndexEntry } from '../../rag/text-analysis.js';
import { scanChunks } from '../chunk-safety.js';
import { chunkBlocks } from '../chunking.js';
import { DOCUMENT_TYPES, type DocumentFiles, type FileDocumentType } from '../document-files.js';
import { finishedMetadata, ingestionOf, ingestJobId } from '../document-metadata.js';
import type { DocumentRow, DocumentsRepository, NewChunk } from '../documents.repository.js';
import type { Decoder } from './decoder.js';
import { IngestionError } from './errors.js';
import { type Extraction, extractFile, extractUrl } from './extract.js';
import type { SyntheticQuestions } from './synthetic-questions.js';
import { indexedText } from './synthetic-questions-prompt.js';
import { type FetchGuards, fetchWithGuards } from './url-fetch.js';

/** Texts per embedding call (the documented batch size). */
export const EMBEDDING_BATCH = 32;
const REASON_MAX = 1000;

export interface IngestionLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface IngestionServiceDeps {
  db: Database;
  documents: DocumentsRepository;
  files: DocumentFiles;
  /** Reads binary files and HTML pages in isolated decoder processes. */
  decoder: Decoder;
  embeddings: EmbeddingProvider;
  fetchGuards: FetchGuards;
  logger: IngestionLogger;
  /** Writes the uploader's notification in the run's transaction; published after the commit. */
  notifications: NotificationsPort;
  /** The knowledge base's syntheticQuestions option at ingestion; none when not given. */
  syntheticQuestions?: SyntheticQuestions;
}

/** What one delivery of a job did. */
export type IngestOutcome = 'ready' | 'failed' | 'stale' | 'gone';

const FILE_TYPES = new Set<string>(DOCUMENT_TYPES.filter((t) => t !== 'url'));

export function createIngestionService(deps: IngestionServiceDeps) {
  const {
    db,
    documents,
    files,
    decoder,
    embeddings,
    fetchGuards,
    logger,
    notifications,
    syntheticQuestions,
  } = deps;
  const extractDeps = { decoder, fetchUrl: (url: string) => fetchWithGuards(url, fetchGuards) };

  const currentJobId = (row: DocumentRow) => ingestJobId(row.id, ingestionOf(row.metadata).run);

  /**
   * Runs `change` on the locked row when `jobId` is still the document's
   * current run and the run is unfinished; answers null otherwise (deleted,
   * reprocessed since, or already finished by an earlier delivery).
   */
  async function whileCurrent<T>(
    documentId: string,
    jobId: string,
    change: (row: DocumentRow, tx: Transaction) => Promise<T>,
  ): Promise<T | null> {
    return db.transaction(async (tx) => {
      const row = await documents.findForUpdate(documentId, tx);
      if (!row || currentJobId(row) !== jobId) return null;
      if (row.status !== 'pending' && row.status !== 'processing') return null;
      return change(row, tx);
    });
  }

  async function extract(row: DocumentRow): Promise<Extraction> {
    if (row.type === 'url') {
      if (!row.originalUrl) throw new IngestionError('The URL document has no address');
      return extractUrl(row.originalUrl, extractDeps);
    }
    if (!FILE_TYPES.has(row.type)) throw new IngestionError(`Documents of type ${row.type} cannot be read`);
    const bytes = row.storedFile ? await files.read(row.storedFile) : null;
    if (!bytes) throw new IngestionError('The uploaded file is missing; upload the document again');
    return extractFile(row.type as FileDocumentType, bytes, extractDeps);
  }

  async function embedAll(texts: readonly string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBEDDING_BATCH) {
      vectors.push(...(await embeddings.embed(texts.slice(i, i + EMBEDDING_BATCH))));
    }
    return vectors;
  }

  /** Pushes the committed rows; a lost push is only logged, since the row is the durable record. */
  async function publish(rows: PendingNotifications): Promise<void> {
    try {
      await notifications.publish(rows);
    } catch (error) {
      logger.warn({ err: error }, 'ingestion: publishing a notification failed');
    }
  }

  /** Marks the run failed with `reason` and tells the uploader; a no-op for a stale or finished run. */
  async function fail(documentId: string, jobId: string, reason: string): Promise<boolean> {
    const message = reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 1)}…` : reason;
    const done = await whileCurrent(documentId, jobId, async (row, tx) => {
      await documents.update(
        row.id,
        { status: 'failed', metadata: finishedMetadata(row.metadata, {}, message, new Date()) },
        tx,
      );
      if (!row.uploadedById) return [];
      return notifications.notify(
        [row.uploadedById],
        {
          type: 'system',
          text: notificationTexts.documentFailed(row.title, message),
          entityType: 'document',
          entityId: row.id,
        },
        tx,
      );
    });
    if (!done) return false;
    logger.warn({ documentId, jobId, reason: message }, 'document ingestion failed');
    await publish(done);
    return true;
  }

  return {
    /**
     * One delivery of an ingestion job: pending → processing, then extract,
     * chunk, embed and store, ending ready (with a document_ready
     * notification to the uploader) or failed with the reason in
     * metadata.error. A job that is not the document's current run does
     * nothing. Content that cannot be ingested fails the document at once.
     * @throws for passing errors (network, provider, database): the queue retries,
     *   and {@link failAfterRetries} records the last one.
     */
    async ingest(documentId: string, jobId: string): Promise<IngestOutcome> {
      const started = await whileCurrent(documentId, jobId, async (row, tx) => {
        const info = { ...ingestionOf(row.metadata), startedAt: new Date().toISOString() };
        return documents.update(
          row.id,
          { status: 'processing', metadata: { ...row.metadata, ingestion: info } },
          tx,
        );
      });
      if (!started) return (await documents.findById(documentId)) ? 'stale' : 'gone';

      let rows: NewChunk[];
      let details: Record<string, unknown>;
      try {
        const extraction = await extract(started);
        const pieces = chunkBlocks(extraction.blocks);
        if (pieces.length === 0) throw new IngestionError('No text was found in the document');
        // Every chunk is scanned for prompt injection; a flagged one is stored held back from retrieval.
        const verdicts = scanChunks(
          pieces.map((p) => p.content),
          { html: extraction.html },
        );
        // The knowledge base's syntheticQuestions option: likely questions per chunk (held-back
        // chunks are never sent), indexed with the content; an LLM failure only loses questions.
        const synthetic = await syntheticQuestions?.generate({
          documentId: started.id,
          knowledgeBaseId: started.knowledgeBaseId,
          chunks: pieces.map((p) => p.content),
          wanted: (index) => verdicts[index] == null,
        });
        const vectors = await embedAll(
          pieces.map((p, index) =>
            indexedText(p.content, synthetic?.questions[index], p.metadata.headingPath),
          ),
        );
        rows = pieces.map((piece, index) => ({
          documentId: started.id,
          knowledgeBaseId: started.knowledgeBaseId,
          chunkIndex: index,
          content: piece.content,
          tokenCount: piece.tokenCount,
          embedding: vectors[index] ?? null,
          embedder: embedderVersion(embeddings),
          metadata: { ...piece.metadata },
          syntheticQuestions: synthetic?.questions[index] ?? null,
          // The keyword leg's terms, from the same text as the embedding (heading path, content, questions).
          ...keywordIndexEntry(
            indexedText(piece.content, synthetic?.questions[index], piece.metadata.headingPath),
          ),
          heldBack: verdicts[index] != null,
          injection: verdicts[index] ?? null,
          // Retrieval trusts this scan of the content while the same detector runs.
          scannedBy: DETECTOR_FINGERPRINT,
        }));
        details = {
          ...extraction.details,
          ...(extraction.title ? { contentTitle: extraction.title } : {}),
          chunkCount: pieces.length,
          heldBackChunkCount: verdicts.filter((v) => v != null).length,
          tokenCount: pieces.reduce((sum, p) => sum + p.tokenCount, 0),
          embeddingProvider: embeddings.name,
          ...(synthetic?.record ? { syntheticQuestions: synthetic.record } : {}),
        };
      } catch (error) {
        if (error instanceof IngestionError || error instanceof EmbeddingDimensionError) {
          await fail(documentId, jobId, error.message);
          return 'failed';
        }
        throw error;
      }

      const stored = await whileCurrent(documentId, jobId, async (row, tx) => {
        await documents.replaceChunks(row.id, rows, tx);
        await documents.update(
          row.id,
          { status: 'ready', metadata: finishedMetadata(row.metadata, details, null, new Date()) },
          tx,
        );
        if (!row.uploadedById) return [];
        return notifications.notify(
          [row.uploadedById],
          {
            type: 'document_ready',
            text: notificationTexts.documentReady(row.title, rows.length),
            entityType: 'document',
            entityId: row.id,
          },
          tx,
        );
      });
      if (!stored) return 'stale';
      const heldBack = rows.filter((r) => r.heldBack).length;
      logger.info({ documentId, jobId, chunks: rows.length, heldBack }, 'document ingested');
      await publish(stored);
      return 'ready';
    },

    /**
     * Called once a job has failed its last try: the document is failed with
     * that error as its reason, so it never stays in processing.
     */
    async failAfterRetries(documentId: string, jobId: string, error: Error): Promise<void> {
      await fail(documentId, jobId, error.message || 'Ingestion failed');
    },

    /**
     * The plain text of a file, read exactly as an upload of that type is
     * (PDF text layer with OCR for pages without one, DOCX, text, OCR for
     * PNG and JPEG), paragraphs separated by blank lines; nothing is stored.
     * Channels use it for files employees send in chat.
     * @throws IngestionError when the content cannot be read.
     */
    async readText(type: FileDocumentType, bytes: Buffer): Promise<string> {
      const extraction = await extractFile(type, bytes, extractDeps);
      return extraction.blocks.map((block) => block.text).join('\n\n');
    },
  };
}

export type IngestionService = ReturnType<typeof createIngestionService>;
