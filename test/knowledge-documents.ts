import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Container } from '../src/container.js';
import type { TestUser } from './factories.js';
import { multipartBody } from './files.js';

export interface KnowledgeUpload {
  knowledgeBaseId: string;
  filename: string;
  content: Buffer;
  /** Omitted: the service names the document after the file. */
  title?: string;
  /** The file part's content type; omitted, the browser default (application/octet-stream). */
  contentType?: string;
}

/**
 * Uploads one file through `POST /api/v1/knowledge/upload` as `caller`, as
 * the console's form does; expects 201 and answers the created document.
 */
export async function uploadKnowledgeFile<T extends { id: string } = { id: string }>(
  app: FastifyInstance,
  caller: TestUser,
  upload: KnowledgeUpload,
): Promise<T> {
  const { body, contentType } = multipartBody({
    knowledgeBaseId: upload.knowledgeBaseId,
    ...(upload.title === undefined ? {} : { title: upload.title }),
    file: { filename: upload.filename, content: upload.content, contentType: upload.contentType },
  });
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/knowledge/upload',
    headers: { ...caller.headers, 'content-type': contentType },
    payload: body,
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** The document as `GET /api/v1/knowledge/documents/:id` answers it to `caller`. */
export async function getKnowledgeDocument<T>(
  app: FastifyInstance,
  caller: TestUser,
  id: string,
): Promise<T> {
  return (await app.inject({ url: `/api/v1/knowledge/documents/${id}`, headers: caller.headers })).json();
}

/** What of a document the wait reads: its status and the number of its latest run. */
interface DocumentRun {
  status: string;
}

/**
 * Polls the document until an ingestion run has ended (ready or failed) and
 * answers it; with `run`, until that run has ended, since a re-run starts
 * from a document that is already ready.
 */
export async function waitForDocumentRun<T extends DocumentRun>(
  app: FastifyInstance,
  caller: TestUser,
  id: string,
  options: { run?: number; timeout?: number; interval?: number } = {},
): Promise<T> {
  let doc: T | undefined;
  await expect
    .poll(
      async () => {
        doc = await getKnowledgeDocument<T>(app, caller, id);
        const ended = doc.status === 'ready' || doc.status === 'failed';
        const { metadata } = doc as { metadata?: { ingestion?: { run?: number } } };
        return ended && (options.run === undefined || metadata?.ingestion?.run === options.run);
      },
      { timeout: options.timeout ?? 25_000, interval: options.interval ?? 200 },
    )
    .toBe(true);
  return doc!;
}

/**
 * Stores `text` as a file and uploads it into the base as the system actor,
 * through the same services the upload route calls; answers the document id
 * without waiting for its ingestion.
 */
export async function uploadTextAsSystem(
  container: Container,
  knowledgeBaseId: string,
  name: string,
  text: string,
): Promise<string> {
  const { knowledge, system } = container;
  const bytes = Buffer.from(text);
  const { tempPath } = await knowledge.files.receive(Readable.from([bytes]));
  const doc = await knowledge.documents.upload(system, {
    knowledgeBaseId,
    title: name,
    file: { tempPath, fileName: name, size: bytes.length },
  });
  return doc.id;
}
