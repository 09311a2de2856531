import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { InboundService } from '../../pipeline/inbound.service.js';
import { createConversationsRepository } from './conversations.repository.js';
import { conversationsRoutes } from './conversations.routes.js';
import { createConversationsService } from './conversations.service.js';

/** Conversations for approvers and the web chat; messages enter through the pipeline's inbound service. */
export function createConversationsModule(deps: { db: Database; inbound: Pick<InboundService, 'receive'> }) {
  const conversations = createConversationsRepository(deps.db);
  const service = createConversationsService({ conversations, inbound: deps.inbound });
  return defineModule({
    service,
    repositories: { conversations },
    routes: (api) => api.register(conversationsRoutes, { conversations: service }),
  });
}
