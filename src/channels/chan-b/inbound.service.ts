import type { Database } from '../../core/db/client.js';
import type { ConversationsRepository } from '../../pipeline/conversations.repository.js';
import type { Delivery } from '../../pipeline/delivery.js';
import type { InboundService } from '../../pipeline/inbound.service.js';
import type { SenderResolver } from '../../pipeline/senders.js';
import { type BotText, botText } from './texts.js';
import type { ChanBInboundItem } from './updates.js';

/** What one inbound item came to. */
export type ChanBIntakeOutcome =
  /** Handed to the pipeline: a task answers it. */
  | 'received'
  /** Stored and answered by the bot itself (the `/start` greeting, or "only text is read"). */
  | 'bot_reply'
  /** Seen before: nothing new was stored or sent. */
  | 'duplicate';

export interface ChanBIntakeDeps {
  db: Database;
  inbound: InboundService;
  senders: SenderResolver;
  conversations: ConversationsRepository;
  delivery: Delivery;
}

/**
 * The `chanB-inbound` consumer's work for one item: a text goes to the
 * pipeline (`inbound.receive`); `/start` and a message that is not text are
 * stored and answered with a text of the bot's own in the sender's language,
 * queued on `chanB-outbound` through the pipeline's delivery like any reply.
 * The chat id is kept in the message's metadata (`chatId`); replies go to
 * the conversation's channel user id, which is the same number because only
 * private chats are taken in (updates.ts).
 */
export function createChanBIntake(deps: ChanBIntakeDeps) {
  const { db, inbound, senders, conversations, delivery } = deps;

  /**
   * Stores the message and queues the bot's own reply in one transaction; a
   * message stored before (a replayed job) sends nothing again. A
   * deactivated sender's message is stored and not answered.
   */
  async function storeWithBotReply(item: ChanBInboundItem, text: BotText): Promise<ChanBIntakeOutcome> {
    const { user, channelUserId } = await senders.resolve({
      channel: 'chanB',
      channelUserId: item.userId,
      ...(item.senderName ? { senderName: item.senderName } : {}),
    });
    const effects = await db.transaction(async (tx) => {
      const conversation = await conversations.openOrFind('chanB', user, channelUserId, tx);
      const stored = await conversations.insertMessage(
        {
          conversationId: conversation.id,
          channel: 'chanB',
          direction: 'inbound',
          content: item.kind === 'start' ? item.text : `[${item.contentType ?? 'unsupported'} message]`,
          channelMessageId: item.channelMessageId,
          metadata: {
            ...metadataOf(item),
            botReply: text,
            ...(item.contentType ? { contentType: item.contentType } : {}),
          },
        },
        tx,
      );
      if (!stored) return null;
      await conversations.touch(conversation.id, { at: stored.createdAt }, tx);
      if (!user.isActive) return { jobs: [], notifications: [] };
      const reply = await delivery.deliverReply(tx, {
        conversation,
        taskId: null,
        approvalId: null,
        content: botText(text, item.language),
      });
      return reply.effects;
    });
    if (!effects) return 'duplicate';
    await delivery.publish(effects);
    return 'bot_reply';
  }

  return {
    /**
     * Takes one inbound item in (see {@link createChanBIntake}).
     * @throws ValidationError when the pipeline refuses the input (repeating cannot help);
     *   anything else is passing (database, queue) and worth a retry.
     */
    async handle(item: ChanBInboundItem): Promise<ChanBIntakeOutcome> {
      if (item.kind === 'start') return storeWithBotReply(item, 'greeting');
      if (item.kind === 'unsupported') return storeWithBotReply(item, 'text_only');
      const result = await inbound.receive({
        channel: 'chanB',
        channelUserId: item.userId,
        text: item.text,
        channelMessageId: item.channelMessageId,
        ...(item.senderName ? { senderName: item.senderName } : {}),
        metadata: metadataOf(item),
      });
      return result.duplicate ? 'duplicate' : 'received';
    },
  };
}

export type ChanBIntake = ReturnType<typeof createChanBIntake>;

/** What the platform told about the message, kept on the stored inbound message. */
function metadataOf(item: ChanBInboundItem): Record<string, unknown> {
  return { chatId: item.chatId, updateId: item.updateId, languageCode: item.language };
}
