import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  CreateKnowledgeBaseBody,
  KnowledgeBase,
  KnowledgeBaseConfigBody,
  KnowledgeBasePage,
  ListKnowledgeBasesQuery,
  UpdateKnowledgeBaseBody,
} from './knowledge-bases.schemas.js';
import type { KnowledgeBasesService } from './knowledge-bases.service.js';

const tags = ['knowledge'];
const audit = { entityType: 'knowledge_bases' };

export const knowledgeBasesRoutes: FastifyPluginAsyncTypebox<{ bases: KnowledgeBasesService }> = async (
  app,
  { bases },
) => {
  app.get('/knowledge/bases', {
    schema: {
      tags,
      operationId: 'listKnowledgeBases',
      querystring: ListKnowledgeBasesQuery,
      response: { 200: KnowledgeBasePage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => bases.list(requireActor(request), request.query),
  });

  app.get('/knowledge/bases/:id', {
    schema: {
      tags,
      operationId: 'getKnowledgeBase',
      params: IdParams,
      response: { 200: KnowledgeBase, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => bases.get(requireActor(request), request.params.id),
  });

  app.post('/knowledge/bases', {
    schema: {
      tags,
      operationId: 'createKnowledgeBase',
      body: CreateKnowledgeBaseBody,
      response: { 201: KnowledgeBase, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', audit },
    handler: async (request, reply) =>
      reply.status(201).send(await bases.create(requireActor(request), request.body)),
  });

  app.patch('/knowledge/bases/:id', {
    schema: {
      tags,
      operationId: 'updateKnowledgeBase',
      params: IdParams,
      body: UpdateKnowledgeBaseBody,
      response: { 200: KnowledgeBase, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit },
    handler: async (request) => bases.update(requireActor(request), request.params.id, request.body),
  });

  app.patch('/knowledge/bases/:id/config', {
    schema: {
      tags,
      operationId: 'configureKnowledgeBase',
      params: IdParams,
      body: KnowledgeBaseConfigBody,
      response: { 200: KnowledgeBase, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canUploadDocuments', audit },
    handler: async (request) => bases.setConfig(requireActor(request), request.params.id, request.body),
  });

  app.delete('/knowledge/bases/:id', {
    schema: {
      tags,
      operationId: 'deleteKnowledgeBase',
      params: IdParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canDeleteDocuments', audit },
    handler: async (request, reply) => {
      await bases.delete(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
};
