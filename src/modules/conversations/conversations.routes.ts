import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  ConversationPage,
  ListConversationsQuery,
  MessagePage,
  MessagesQuery,
} from './conversations.schemas.js';
import type { ConversationsService } from './conversations.service.js';

const tags = ['conversations'];

export const conversationsRoutes: FastifyPluginAsyncTypebox<{ conversations: ConversationsService }> = async (
  app,
  { conversations },
) => {
  app.get('/conversations', {
    schema: {
      tags,
      operationId: 'listConversations',
      querystring: ListConversationsQuery,
      response: { 200: ConversationPage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user', permission: 'canApprove' },
    handler: async (request) => conversations.list(requireActor(request), request.query),
  });

  app.get('/conversations/:id/messages', {
    schema: {
      tags,
      operationId: 'listConversationMessages',
      params: IdParams,
      querystring: MessagesQuery,
      response: { 200: MessagePage, ...errorResponses(401, 403, 404, 422) },
    },
    config: { auth: 'user', permission: 'canApprove' },
    handler: async (request) =>
      conversations.messages(requireActor(request), request.params.id, request.query),
  });
};
