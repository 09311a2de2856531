import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  ConversationPage,
  ListConversationsQuery,
  MessagePage,
  MessagesQuery,
  SendWebMessageBody,
  SentWebMessage,
  WebMessagePage,
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

  // The literal `web` segment wins over `:id` in the router, and `:id` only takes UUIDs anyway.
  app.post('/conversations/web/messages', {
    schema: {
      tags,
      operationId: 'sendWebMessage',
      body: SendWebMessageBody,
      response: { 202: SentWebMessage, ...errorResponses(401, 422) },
    },
    config: { auth: 'user', audit: { entityType: 'messages' } },
    handler: async (request, reply) =>
      reply.status(202).send(await conversations.sendWeb(requireActor(request), request.body)),
  });

  app.get('/conversations/web/messages', {
    schema: {
      tags,
      operationId: 'listWebMessages',
      querystring: MessagesQuery,
      response: { 200: WebMessagePage, ...errorResponses(401, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => conversations.webMessages(requireActor(request), request.query),
  });
};
