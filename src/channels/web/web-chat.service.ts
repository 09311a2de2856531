import type { Actor } from '../../core/auth/actor.js';
import type { InboundService } from '../../pipeline/inbound.service.js';

/**
 * The web chat's way in: an employee's message from the console or the API
 * enters the pipeline like any channel's, in the sender's open web
 * conversation (their history is read through the conversations module).
 */
export function createWebChat(deps: { inbound: Pick<InboundService, 'receive'> }) {
  return {
    /**
     * Sends the actor's message to the assistant through the web channel: it
     * is stored in the actor's open web conversation and an agent task is
     * queued. A `clientMessageId` sent before answers the first message again
     * and stores and runs nothing.
     * @throws ValidationError for text the pipeline refuses.
     */
    async send(actor: Actor, input: { text: string; clientMessageId?: string }) {
      const received = await deps.inbound.receive({
        channel: 'web',
        channelUserId: actor.userId,
        userId: actor.userId,
        text: input.text,
        channelMessageId: input.clientMessageId ?? null,
      });
      return {
        messageId: received.messageId,
        conversationId: received.conversationId,
        taskId: received.taskId,
      };
    },
  };
}

export type WebChat = ReturnType<typeof createWebChat>;
