import type { Database } from '../../core/db/client.js';
import type { InboundService } from '../../pipeline/inbound.service.js';
import { createConversationsRepository } from './conversations.repository.js';
import { createConversationsService } from './conversations.service.js';

/** Conversations for approvers and the web chat; messages enter through the pipeline's inbound service. */
export function createConversationsModule(deps: { db: Database; inbound: Pick<InboundService, 'receive'> }) {
  const conversations = createConversationsRepository(deps.db);
  return {
    repository: conversations,
    service: createConversationsService({ conversations, inbound: deps.inbound }),
  };
}
