import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import { DraftBody, DraftResponse } from './rag.schemas.js';
import type { RagService } from './rag.service.js';

const tags = ['rag'];

export const ragRoutes: FastifyPluginAsyncTypebox<{ rag: RagService }> = async (app, { rag }) => {
  app.post('/rag/draft', {
    schema: {
      tags,
      operationId: 'draftAnswer',
      body: DraftBody,
      response: { 200: DraftResponse, ...errorResponses(401, 403, 404, 422, 503) },
    },
    config: { auth: 'user', permission: 'canViewKnowledge', audit: { entityType: 'rag', action: 'draft' } },
    handler: async (request) => rag.draft(requireActor(request), request.body),
  });
};
