import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../core/errors/app-errors.js';
import { readMultipartForm } from '../../core/http/multipart.js';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import type { DocumentFiles } from './document-files.js';
import {
  CreateUrlDocumentBody,
  Document,
  DocumentDetail,
  DocumentDetailQuery,
  DocumentPage,
  ListDocumentsQuery,
  UpdateDocumentBody,
} from './documents.schemas.js';
import type { DocumentsService, UploadInput } from './documents.service.js';

export interface DocumentsRoutesOptions {
  documents: DocumentsService;
  files: DocumentFiles;
  uploadMaxBytes: number;
}

const tags = ['knowledge'];
const audit = { entityType: 'documents' };

/**
 * Streams the multipart form to disk: the `file` part to a temporary file,
 * text parts into fields (in any order). Transport only; the service decides.
 */
async function readUploadForm(
  request: FastifyRequest,
  files: DocumentFiles,
  maxBytes: number,
): Promise<UploadInput> {
  const form = await readMultipartForm(request, {
    maxBytes,
    tooLargeMessage: `The file is larger than the upload limit of ${maxBytes} bytes`,
    fileField: 'file',
    store: (stream) => files.receive(stream),
    discard: (received) => files.discard(received.tempPath),
  });
  const { fields, file } = form;
  request.auditChanges = {
    fields: { knowledgeBaseId: fields.knowledgeBaseId, title: fields.title },
    file: file ? { filename: file.fileName, size: file.size } : null,
  };
  if (!file) throw new ValidationError([{ field: 'body.file', message: 'a file is required' }]);
  return {
    knowledgeBaseId: fields.knowledgeBaseId,
    title: fields.title,
    file: { tempPath: file.content.tempPath, fileName: file.fileName, size: file.size },
  };
}

export const documentsRoutes: FastifyPluginAsyncTypebox<DocumentsRoutesOptions> = async (
  app,
  { documents, files, uploadMaxBytes },
) => {
  app.get('/knowledge/documents', {
    schema: {
      tags,
      operationId: 'listDocuments',
      querystring: ListDocumentsQuery,
      response: { 200: DocumentPage, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => documents.list(requireActor(request), request.query),
  });

  app.post('/knowledge/upload', {
    schema: {
      tags,
      operationId: 'uploadDocument',
      consumes: ['multipart/form-data'],
      response: { 201: Document, ...errorResponses(400, 401, 404, 413, 415, 422) },
    },
    config: { auth: 'user', audit },
    handler: async (request, reply) => {
      const actor = requireActor(request);
      const form = await readUploadForm(request, files, uploadMaxBytes);
      return reply.status(201).send(await documents.upload(actor, form));
    },
  });

  app.post('/knowledge/documents', {
    schema: {
      tags,
      operationId: 'createUrlDocument',
      body: CreateUrlDocumentBody,
      response: { 201: Document, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit },
    handler: async (request, reply) =>
      reply.status(201).send(await documents.createUrl(requireActor(request), request.body)),
  });

  app.get('/knowledge/documents/:id', {
    schema: {
      tags,
      operationId: 'getDocument',
      params: IdParams,
      querystring: DocumentDetailQuery,
      response: { 200: DocumentDetail, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => documents.get(requireActor(request), request.params.id, request.query),
  });

  app.patch('/knowledge/documents/:id', {
    schema: {
      tags,
      operationId: 'updateDocument',
      params: IdParams,
      body: UpdateDocumentBody,
      response: { 200: Document, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit },
    handler: async (request) => documents.update(requireActor(request), request.params.id, request.body),
  });

  app.post('/knowledge/documents/:id/reprocess', {
    schema: {
      tags,
      operationId: 'reprocessDocument',
      params: IdParams,
      response: { 200: Document, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit: { ...audit, action: 'reprocess' } },
    handler: async (request) => documents.reprocess(requireActor(request), request.params.id),
  });

  app.delete('/knowledge/documents/:id', {
    schema: {
      tags,
      operationId: 'deleteDocument',
      params: IdParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canDeleteDocuments', audit },
    handler: async (request, reply) => {
      await documents.delete(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
};
