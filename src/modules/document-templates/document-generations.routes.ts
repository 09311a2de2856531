import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  DocumentGenerationDetail,
  DocumentGenerationPage,
  ListGenerationsQuery,
} from './document-generations.schemas.js';
import type { DocumentGenerationsService } from './document-generations.service.js';

const tags = ['document-templates'];

export const documentGenerationsRoutes: FastifyPluginAsyncTypebox<{
  generations: DocumentGenerationsService;
}> = async (app, { generations }) => {
  app.get('/document-generations', {
    schema: {
      tags,
      operationId: 'listDocumentGenerations',
      querystring: ListGenerationsQuery,
      response: { 200: DocumentGenerationPage, ...errorResponses(401, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => generations.list(requireActor(request), request.query),
  });

  app.get('/document-generations/:id', {
    schema: {
      tags,
      operationId: 'getDocumentGeneration',
      params: IdParams,
      response: { 200: DocumentGenerationDetail, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => generations.get(requireActor(request), request.params.id),
  });
};
