import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import {
  NotFoundError,
  UnsupportedMediaTypeError,
  type ValidationDetail,
  ValidationError,
} from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import { isUuid } from '../../core/ids.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import { heldBackExcerpt } from './chunk-safety.js';
import { type DocumentFiles, detectFileType, MIME_TYPES } from './document-files.js';
import {
  ingestionOf,
  ingestJobId,
  queuedMetadata,
  RESERVED_METADATA_KEYS,
  withOwnMetadata,
} from './document-metadata.js';
import type { DocumentFilters, DocumentRow, DocumentsRepository } from './documents.repository.js';
import { HELD_BACK_LIST_MAX, METADATA_MAX_BYTES, TITLE_MAX } from './documents.schemas.js';
import type { KnowledgeBasesRepository } from './knowledge-bases.repository.js';

export interface DocumentsServiceDeps {
  db: Database;
  documents: DocumentsRepository;
  bases: KnowledgeBasesRepository;
  files: DocumentFiles;
  queue: QueueDriver;
}

/** Tries of one ingestion job; a crash or a passing error is retried, the last failure marks the document failed. */
export const INGEST_ATTEMPTS = 3;

export interface UploadInput {
  knowledgeBaseId: string | undefined;
  title: string | undefined;
  file: { tempPath: string; fileName: string; size: number };
}

/** A document as the API answers it; `heldBackChunkCount` comes from its chunks. */
export function toDocument(row: DocumentRow, heldBackChunkCount = 0) {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    departmentId: row.departmentId,
    title: row.title,
    type: row.type,
    originalUrl: row.originalUrl,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    status: row.status,
    metadata: row.metadata,
    uploadedById: row.uploadedById,
    heldBackChunkCount,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A title from an upload's file name: the name without its extension. */
function titleFromFileName(fileName: string): string {
  const base = path.basename(fileName, path.extname(fileName)).trim();
  return (base || fileName || 'Untitled').slice(0, TITLE_MAX);
}

export function createDocumentsService(deps: DocumentsServiceDeps) {
  const { db, documents, bases, files, queue } = deps;

  const notFound = (id: string) => `Document ${id} not found`;

  /** The row as answered, with its held-back chunk count. */
  async function present(row: DocumentRow) {
    const counts = await documents.countHeldBack([row.id]);
    return toDocument(row, counts.get(row.id) ?? 0);
  }

  /** The held-back chunks a detail lists, with the scan's verdict and an excerpt. */
  async function heldBackChunksOf(id: string) {
    const rows = await documents.listHeldBack(id, HELD_BACK_LIST_MAX);
    return rows.map((chunk) => ({
      chunkId: chunk.id,
      chunkIndex: chunk.chunkIndex,
      family: chunk.injection?.family ?? null,
      reason: chunk.injection?.reason ?? 'prompt injection',
      score: chunk.injection?.score ?? null,
      source: chunk.injection?.source ?? ('text' as const),
      excerpt: heldBackExcerpt(chunk.content, chunk.injection?.span),
    }));
  }

  async function loadVisible(actor: Actor, id: string): Promise<DocumentRow> {
    return assertVisible(actor, await documents.findById(id), (d) => d.departmentId, notFound(id));
  }

  async function loadBase(actor: Actor, id: string) {
    return assertVisible(
      actor,
      await bases.findById(id),
      (b) => b.departmentId,
      `Knowledge base ${id} not found`,
    );
  }

  /** Enqueues the document's current run; called after the row is written. */
  async function enqueue(row: DocumentRow): Promise<void> {
    const { run } = ingestionOf(row.metadata);
    await queue.add(
      'knowledge-ingest',
      'ingest',
      { documentId: row.id },
      { jobId: ingestJobId(row.id, run), attempts: INGEST_ATTEMPTS, backoffMs: 2000 },
    );
  }

  /**
   * Applies the patch `change` computes from the locked row (so a worker's
   * write in between is never lost); with `requeue` the document goes back
   * to pending under a new run, queued after the commit.
   */
  async function changeLocked(
    id: string,
    change: (row: DocumentRow) => { patch: Partial<DocumentRow>; requeue: boolean },
  ): Promise<DocumentRow> {
    const { row, requeue } = await db.transaction(async (tx) => {
      const locked = await documents.findForUpdate(id, tx);
      if (!locked) throw new NotFoundError(notFound(id));
      const { patch, requeue } = change(locked);
      if (requeue) {
        patch.status = 'pending';
        patch.metadata = queuedMetadata(patch.metadata ?? locked.metadata, new Date());
      }
      if (Object.keys(patch).length === 0) return { row: locked, requeue };
      return { row: (await documents.update(id, patch, tx)) ?? locked, requeue };
    });
    if (requeue) await enqueue(row);
    return row;
  }

  return {
    /**
     * Documents of the actor's departments, filtered.
     * @throws ForbiddenError for a `departmentId` outside the actor's departments.
     * @throws NotFoundError for a `knowledgeBaseId` the actor cannot see.
     */
    async list(
      actor: Actor,
      query: DocumentFilters & { departmentId?: string; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const scope = departmentScope(actor, query.departmentId);
      if (query.knowledgeBaseId) await loadBase(actor, query.knowledgeBaseId);
      const filters: DocumentFilters = {};
      if (query.knowledgeBaseId) filters.knowledgeBaseId = query.knowledgeBaseId;
      if (query.status) filters.status = query.status;
      if (query.type) filters.type = query.type;
      const { rows, total } = await documents.list(scope, filters, { limit, offset });
      const heldBack = await documents.countHeldBack(rows.map((r) => r.id));
      return { items: rows.map((r) => toDocument(r, heldBack.get(r.id) ?? 0)), total, limit, offset };
    },

    /**
     * One document with its chunk count and held-back chunk count and, for
     * holders of canViewKnowledge, a page of its chunks and the held-back
     * chunks with the reasons the ingestion-time scan gave.
     * @throws NotFoundError when missing or outside the actor's departments.
     */
    async get(actor: Actor, id: string, query: { chunkLimit?: number; chunkOffset?: number } = {}) {
      const row = await loadVisible(actor, id);
      const chunkCount = await documents.countChunks(id);
      const document = await present(row);
      if (!actor.permissions.has('canViewKnowledge')) return { ...document, chunkCount };
      const chunks = await documents.listChunks(id, {
        limit: query.chunkLimit ?? 100,
        offset: query.chunkOffset ?? 0,
      });
      return { ...document, chunkCount, heldBackChunks: await heldBackChunksOf(id), chunks };
    },

    /**
     * Stores an uploaded file (received to a temporary path) as a pending
     * document and queues its ingestion. The temporary file is always consumed.
     * @throws ValidationError for a missing or malformed knowledgeBaseId or title.
     * @throws NotFoundError when the knowledge base is missing or outside the actor's departments.
     * @throws UnsupportedMediaTypeError for content other than PDF, DOCX, TXT, Markdown, PNG or JPEG.
     */
    async upload(actor: Actor, input: UploadInput) {
      const { tempPath, fileName, size } = input.file;
      let kept: string | null = null;
      try {
        const problems: ValidationDetail[] = [];
        if (!input.knowledgeBaseId || !isUuid(input.knowledgeBaseId)) {
          problems.push({ field: 'body.knowledgeBaseId', message: 'must be a knowledge base id (UUID)' });
        }
        const title = input.title?.trim() || titleFromFileName(fileName);
        if (title.length > TITLE_MAX) {
          problems.push({ field: 'body.title', message: `must be at most ${TITLE_MAX} characters` });
        }
        if (problems.length > 0) throw new ValidationError(problems);
        const base = await loadBase(actor, input.knowledgeBaseId!);
        const type = await detectFileType(tempPath, fileName);
        if (!type) {
          throw new UnsupportedMediaTypeError(
            `${fileName || 'The file'} is not a PDF, DOCX, TXT, Markdown, PNG or JPEG file`,
          );
        }
        const id = randomUUID();
        kept = await files.keep(tempPath, id, type);
        const row = await documents.insert({
          id,
          knowledgeBaseId: base.id,
          departmentId: base.departmentId,
          title,
          type,
          storedFile: kept,
          mimeType: MIME_TYPES[type],
          sizeBytes: size,
          status: 'pending',
          metadata: { fileName: path.basename(fileName).slice(0, 255), ...queuedMetadata({}, new Date()) },
          uploadedById: actor.kind === 'user' ? actor.userId : null,
        });
        kept = null;
        await enqueue(row);
        return toDocument(row);
      } finally {
        await files.discard(tempPath);
        if (kept) await files.remove(kept);
      }
    },

    /**
     * Adds a web page to a knowledge base; the worker fetches it.
     * @throws NotFoundError when the knowledge base is missing or outside the actor's departments.
     */
    async createUrl(actor: Actor, input: { knowledgeBaseId: string; title: string; originalUrl: string }) {
      const base = await loadBase(actor, input.knowledgeBaseId);
      const row = await documents.insert({
        knowledgeBaseId: base.id,
        departmentId: base.departmentId,
        title: input.title.trim(),
        type: 'url',
        originalUrl: input.originalUrl,
        status: 'pending',
        metadata: queuedMetadata({}, new Date()),
        uploadedById: actor.kind === 'user' ? actor.userId : null,
      });
      await enqueue(row);
      return toDocument(row);
    },

    /**
     * Changes title, source URL or the caller's metadata keys. A URL document
     * whose address changes is fetched again.
     * @throws NotFoundError when missing or outside the actor's departments.
     * @throws ValidationError for metadata that names a service key (error, ingestion, fileName) or is too large,
     *   or for removing a URL document's address.
     */
    async update(
      actor: Actor,
      id: string,
      input: { title?: string; originalUrl?: string | null; metadata?: Record<string, unknown> },
    ) {
      const row = await loadVisible(actor, id);
      const problems: ValidationDetail[] = [];
      for (const key of RESERVED_METADATA_KEYS) {
        if (input.metadata && key in input.metadata) {
          problems.push({
            field: `body.metadata.${key}`,
            message: 'is written by the service and cannot be set',
          });
        }
      }
      if (input.metadata && Buffer.byteLength(JSON.stringify(input.metadata)) > METADATA_MAX_BYTES) {
        problems.push({
          field: 'body.metadata',
          message: `must be at most ${METADATA_MAX_BYTES} bytes as JSON`,
        });
      }
      if (row.type === 'url' && input.originalUrl === null) {
        problems.push({ field: 'body.originalUrl', message: 'a URL document needs its address' });
      }
      if (problems.length > 0) throw new ValidationError(problems);

      const updated = await changeLocked(id, (locked) => {
        const patch: Partial<DocumentRow> = {};
        if (input.title !== undefined) patch.title = input.title.trim();
        if (input.originalUrl !== undefined) patch.originalUrl = input.originalUrl;
        if (input.metadata !== undefined) patch.metadata = withOwnMetadata(locked.metadata, input.metadata);
        const refetch =
          locked.type === 'url' && input.originalUrl != null && input.originalUrl !== locked.originalUrl;
        return { patch, requeue: refetch };
      });
      return present(updated);
    },

    /**
     * Puts a document in any status back to pending and queues it again.
     * @throws NotFoundError when missing or outside the actor's departments.
     */
    async reprocess(actor: Actor, id: string) {
      await loadVisible(actor, id);
      return present(await changeLocked(id, () => ({ patch: {}, requeue: true })));
    },

    /**
     * Deletes a document, its chunks and its stored file.
     * @throws NotFoundError when missing or outside the actor's departments.
     */
    async delete(actor: Actor, id: string): Promise<void> {
      await loadVisible(actor, id);
      const row = await documents.delete(id);
      if (row) await files.remove(row.storedFile);
    },
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
