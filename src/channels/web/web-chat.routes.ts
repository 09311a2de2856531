import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import {
  MessagesQuery,
  SendWebMessageBody,
  SentWebMessage,
  WebMessagePage,
} from '../../modules/conversations/conversations.schemas.js';
import type { ConversationsService } from '../../modules/conversations/conversations.service.js';
import type { WebChat } from './web-chat.service.js';

const tags = ['conversations'];

/** The web chat: send a message to the assistant, read one's own chat (under /conversations/web). */
export const webChatRoutes: FastifyPluginAsyncTypebox<{
  webChat: WebChat;
  conversations: Pick<ConversationsService, 'webMessages'>;
}> = async (app, { webChat, conversations }) => {
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
      reply.status(202).send(await webChat.send(requireActor(request), request.body)),
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
