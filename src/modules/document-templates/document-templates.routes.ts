import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import { GenerateBody, GeneratedDocument } from './document-generations.schemas.js';
import type { DocumentGenerationsService } from './document-generations.service.js';
import {
  CreateTemplateBody,
  DocumentTemplate,
  DocumentTemplatePage,
  ListTemplatesQuery,
  UpdateTemplateBody,
} from './document-templates.schemas.js';
import type { DocumentTemplatesService } from './document-templates.service.js';
import { contentDisposition } from './output-file.js';

const tags = ['document-templates'];
const audit = { entityType: 'document_templates' };

export const documentTemplatesRoutes: FastifyPluginAsyncTypebox<{
  templates: DocumentTemplatesService;
  generations: DocumentGenerationsService;
}> = async (app, { templates, generations }) => {
  app.get('/document-templates', {
    schema: {
      tags,
      operationId: 'listDocumentTemplates',
      querystring: ListTemplatesQuery,
      response: { 200: DocumentTemplatePage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => templates.list(requireActor(request), request.query),
  });

  app.get('/document-templates/:id', {
    schema: {
      tags,
      operationId: 'getDocumentTemplate',
      params: IdParams,
      response: { 200: DocumentTemplate, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => templates.get(requireActor(request), request.params.id),
  });

  app.post('/document-templates', {
    schema: {
      tags,
      operationId: 'createDocumentTemplate',
      body: CreateTemplateBody,
      response: { 201: DocumentTemplate, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', permission: 'canManageTemplates', audit },
    handler: async (request, reply) =>
      reply.status(201).send(await templates.create(requireActor(request), request.body)),
  });

  app.patch('/document-templates/:id', {
    schema: {
      tags,
      operationId: 'updateDocumentTemplate',
      params: IdParams,
      body: UpdateTemplateBody,
      response: { 200: DocumentTemplate, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageTemplates', audit },
    handler: async (request) => templates.update(requireActor(request), request.params.id, request.body),
  });

  app.delete('/document-templates/:id', {
    schema: {
      tags,
      operationId: 'deleteDocumentTemplate',
      params: IdParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canManageTemplates', audit },
    handler: async (request, reply) => {
      await templates.delete(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/document-templates/:id/generate', {
    schema: {
      tags,
      operationId: 'generateDocument',
      params: IdParams,
      body: GenerateBody,
      response: { 200: GeneratedDocument, ...errorResponses(401, 403, 404, 422, 501) },
    },
    config: { auth: 'user', permission: 'canGenerateDocuments', audit: { ...audit, action: 'generate' } },
    handler: async (request, reply) => {
      const result = await generations.generate(requireActor(request), request.params.id, request.body);
      reply.header('content-type', result.contentType);
      if (result.format === 'docx') reply.header('content-disposition', contentDisposition(result.fileName));
      if (result.generationId) reply.header('x-generation-id', result.generationId);
      if (result.documentId) reply.header('x-document-id', result.documentId);
      return reply.send(result.bytes);
    },
  });
};
