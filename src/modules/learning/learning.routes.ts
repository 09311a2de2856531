import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import {
  AcceptSuggestionBody,
  ListSuggestionsQuery,
  Suggestion,
  SuggestionPage,
  SuggestionParams,
} from './learning.schemas.js';
import type { LearningService } from './learning.service.js';

const tags = ['learning'];
const manage = { auth: 'user', permission: 'canManageNamespaces' } as const;
const entityType = 'learning_suggestions';

/** The learning suggestions of edited approvals (docs/learning.md), all P:canManageNamespaces. */
export const learningRoutes: FastifyPluginAsyncTypebox<{ learning: LearningService }> = async (
  app,
  { learning },
) => {
  app.get('/learning/suggestions', {
    schema: {
      tags,
      operationId: 'listLearningSuggestions',
      querystring: ListSuggestionsQuery,
      response: { 200: SuggestionPage, ...errorResponses(401, 403, 404, 422) },
    },
    config: manage,
    handler: async (request) => learning.list(requireActor(request), request.query),
  });

  app.post('/learning/suggestions/:id/accept', {
    schema: {
      tags,
      operationId: 'acceptLearningSuggestion',
      params: SuggestionParams,
      body: AcceptSuggestionBody,
      response: { 200: Suggestion, ...errorResponses(401, 403, 404, 409, 422, 503) },
    },
    config: { ...manage, audit: { entityType, action: 'accept' } },
    handler: async (request) => learning.accept(requireActor(request), request.params.id, request.body ?? {}),
  });

  app.post('/learning/suggestions/:id/dismiss', {
    schema: {
      tags,
      operationId: 'dismissLearningSuggestion',
      params: SuggestionParams,
      response: { 200: Suggestion, ...errorResponses(401, 403, 404, 409, 422) },
    },
    config: { ...manage, audit: { entityType, action: 'dismiss' } },
    handler: async (request) => learning.dismiss(requireActor(request), request.params.id),
  });
};
