import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import { createConversationsRepository } from './conversations.repository.js';
import { conversationsRoutes } from './conversations.routes.js';
import { createConversationsService } from './conversations.service.js';
import { createMessagesRepository } from './messages.repository.js';

/** Conversations for approvers and the web chat; messages enter through the pipeline's inbound service. */
export function createConversationsModule(deps: { db: Database }) {
  const conversations = createConversationsRepository(deps.db);
  const messages = createMessagesRepository(deps.db);
  const service = createConversationsService({ conversations, messages });
  return defineModule({
    service,
    repositories: { conversations, messages },
    routes: (api) => api.register(conversationsRoutes, { conversations: service }),
  });
}
