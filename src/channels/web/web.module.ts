import { defineModule } from '../../core/module.js';
import type { ConversationsService } from '../../modules/conversations/conversations.service.js';
import type { InboundService } from '../../pipeline/inbound.service.js';
import { webChatRoutes } from './web-chat.routes.js';
import { createWebChat } from './web-chat.service.js';

/** The web chat channel: its routes send into the pipeline and read the sender's own chat. */
export function createWebChannelModule(deps: {
  inbound: Pick<InboundService, 'receive'>;
  conversations: Pick<ConversationsService, 'webMessages'>;
}) {
  const webChat = createWebChat({ inbound: deps.inbound });
  return defineModule({
    webChat,
    routes: (api) => api.register(webChatRoutes, { webChat, conversations: deps.conversations }),
  });
}

export type WebChannelModule = ReturnType<typeof createWebChannelModule>;
