import type { UnknownSenderPolicy } from '../../core/config/config.js';
import type { Database } from '../../core/db/client.js';
import { guessLanguage } from '../../core/llm/extractive-responder.js';
import type { ChannelLinking } from '../../modules/channel-identities/channel-linking.service.js';
import { linkCodeOf } from '../../modules/channel-identities/link-codes.js';
import type { ApprovalChatInbound } from '../../modules/chat-approvals/chat-ports.js';
import { DECISION_TOKEN_PREFIX } from '../../modules/chat-approvals/decision-token.js';
import type { ConversationsRepository } from '../../modules/conversations/conversations.repository.js';
import type { MessagesRepository } from '../../modules/conversations/messages.repository.js';
import type { FeedbackService } from '../../modules/feedback/feedback.service.js';
import { ratingOfEmoji } from '../../modules/feedback/reactions.js';
import type { InboundService } from '../../pipeline/inbound.service.js';
import type { ReplyRouting } from '../../pipeline/routing.js';
import type { SenderResolver } from '../../pipeline/senders.js';
import type { SendersRepository } from '../../pipeline/senders.repository.js';
import type { DirectReplies } from '../outbound/direct-reply.js';
import { type BotText, botText } from './texts.js';
import {
  type BotLanguage,
  botLanguage,
  type ChanBFeedback,
  type ChanBInboundItem,
  parseFeedbackData,
} from './updates.js';

/** What one inbound item came to. */
export type ChanBIntakeOutcome =
  /** Handed to the pipeline: a task answers it. */
  | 'received'
  /** Stored and answered by the bot itself (the `/start` greeting, or "only text is read"). */
  | 'bot_reply'
  /** Seen before: nothing new was stored or sent. */
  | 'duplicate'
  /** `/start <code>`: a link attempt, answered by the bot and not stored (docs/channels.md, linking). */
  | 'link_attempt'
  /** From a sender linked to nobody under CHANNEL_UNKNOWN_SENDER=instruct: told how to link, nothing stored. */
  | 'instructed'
  /** From a sender linked to nobody under CHANNEL_UNKNOWN_SENDER=reject: nothing stored or sent. */
  | 'rejected'
  /** A rating button or a reaction: recorded when it rates an assistant reply of the sender; never a message. */
  | 'feedback'
  /** A button of an approval request (`apv:` data): handed to chat approvals; never stored, never the pipeline. */
  | 'approval_press'
  /** A text chat approvals awaited (an edit, a reason, `/cancel`): consumed there; nothing stored, never the pipeline. */
  | 'approval_input';

export interface ChanBIntakeDeps {
  db: Database;
  inbound: InboundService;
  senders: SenderResolver;
  conversations: Pick<ConversationsRepository, 'openOrFind' | 'touch'>;
  messages: Pick<MessagesRepository, 'insertMessage' | 'turnsBefore' | 'findMessageByChannelId'>;
  /** Who a sender is, without creating anyone. */
  senderRows: Pick<SendersRepository, 'findSender'>;
  routing: Pick<ReplyRouting, 'deliverReply' | 'publish'>;
  /** Sender → user and link codes (modules/channel-identities). */
  linking: Pick<ChannelLinking, 'findUser' | 'redeem' | 'instructions'>;
  /** CHANNEL_UNKNOWN_SENDER. */
  unknownSender: UnknownSenderPolicy;
  /** Replies outside a conversation (link confirmations, instructions), by the transport. */
  replies: DirectReplies;
  /** Employees' ratings (modules/feedback): rating buttons and reactions on assistant replies. */
  feedback: Pick<FeedbackService, 'recordFeedback' | 'recordPlatformFeedback'>;
  logger: { warn(object: object, message?: string): void };
  /** Answers a button press (`answerCallbackQuery`), with a short toast when `text` is given. */
  answerCallback(callbackQueryId: string, text: string | null): Promise<void>;
  /** Approvals in chat (modules/chat-approvals): approvers' presses and the answers they were asked for. */
  approvalChat: ApprovalChatInbound;
}

/** The user's language (en, uk or ru) when set, else `fallback`. */
function userLanguageOr(language: string | null, fallback: BotLanguage): BotLanguage {
  return language === 'en' || language === 'uk' || language === 'ru' ? language : fallback;
}

/** The sender's language: the app's (`from.language_code`) when it sent one, else the text's. */
function senderLanguage(item: ChanBInboundItem): BotLanguage {
  return item.languageCode ? botLanguage(item.languageCode) : guessLanguage(item.text);
}

/**
 * The `chanB-inbound` consumer's work for one item: a button of an approval
 * request goes to chat approvals, and so does a text an approver was asked
 * for (an edit, a reason); `/start <code>` links
 * the sender (never reaching the pipeline); a sender linked to nobody is
 * handled by CHANNEL_UNKNOWN_SENDER (a placeholder user, instructions, or
 * nothing); a text goes to the
 * pipeline (`inbound.receive`); `/start` and a message that is not text are
 * stored and answered with a text of the bot's own in the sender's language,
 * queued on `chanB-outbound` through the pipeline's delivery like any reply.
 * The chat id is kept in the message's metadata (`chatId`); replies go to
 * the conversation's channel user id, which is the same number because only
 * private chats are taken in (updates.ts).
 */
export function createChanBIntake(deps: ChanBIntakeDeps) {
  const { db, inbound, senders, conversations, linking, replies } = deps;

  /** Links the sender by the code of `/start <code>` and answers how it went; nothing is stored. */
  async function linkAttempt(item: ChanBInboundItem, code: string | null): Promise<ChanBIntakeOutcome> {
    const sent = await replies.send(item.channelMessageId, item.chatId, async () => {
      const result = await linking.redeem({
        channel: 'chanB',
        channelUserId: item.userId,
        code,
        messageLanguage: senderLanguage(item),
      });
      return result.text;
    });
    return sent === 'duplicate' ? 'duplicate' : 'link_attempt';
  }

  /** A sender linked to nobody, when CHANNEL_UNKNOWN_SENDER is not `placeholder`: told how to link, or ignored. */
  async function unknownSender(item: ChanBInboundItem): Promise<ChanBIntakeOutcome> {
    if (deps.unknownSender === 'reject') return 'rejected';
    const sent = await replies.send(item.channelMessageId, item.chatId, async () =>
      linking.instructions(senderLanguage(item)),
    );
    return sent === 'duplicate' ? 'duplicate' : 'instructed';
  }

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
      const stored = await deps.messages.insertMessage(
        {
          conversationId: conversation.id,
          channel: 'chanB',
          direction: 'inbound',
          content: item.kind === 'start' ? item.text : `[${item.contentType ?? 'unsupported'} message]`,
          channelMessageId: item.channelMessageId,
          metadata: {
            ...metadataOf(item),
            botReply: text,
          },
        },
        tx,
      );
      if (!stored) return null;
      await conversations.touch(conversation.id, { at: stored.createdAt }, tx);
      if (!user.isActive) return { jobs: [], notifications: [] };
      const reply = await deps.routing.deliverReply(tx, {
        conversation,
        taskId: null,
        approvalId: null,
        // The user's own language when they chose one, else their app's.
        content: botText(text, userLanguageOr(user.language, item.language)),
      });
      return reply.effects;
    });
    if (!effects) return 'duplicate';
    await deps.routing.publish(effects);
    return 'bot_reply';
  }

  /**
   * A rating button or a reaction rates an assistant reply when the sender, found as the
   * inbound routing finds them (no user is created for it), is the employee of the reply's
   * conversation; anything else is ignored. A button press is always answered, so the client
   * stops waiting; a failed answer is only logged (the rating is kept, a retry would not help).
   */
  async function rate(item: ChanBInboundItem): Promise<ChanBIntakeOutcome> {
    const feedback = item.feedback;
    if (!feedback) return 'feedback';
    const { lookup } = senders.identify({ channel: 'chanB', channelUserId: item.userId });
    const sender = await deps.senderRows.findSender(lookup);
    let stored = false;
    if (feedback.via === 'button') {
      const pressed = parseFeedbackData(feedback.data);
      if (sender && pressed) {
        const outcome = await deps.feedback.recordFeedback({
          messageId: pressed.messageId,
          userId: sender.id,
          rating: pressed.rating,
          channel: 'chanB',
        });
        stored = outcome.status !== 'ignored';
      }
      const thanks = stored
        ? botText('feedback_thanks', userLanguageOr(sender?.language ?? null, item.language))
        : null;
      await deps
        .answerCallback(feedback.callbackQueryId, thanks)
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, updateId: item.updateId }, 'chanB: answering a button press failed'),
        );
      return 'feedback';
    }
    const rating = ratingOfEmoji(feedback.emoji);
    if (sender && rating !== undefined) {
      await deps.feedback.recordPlatformFeedback({
        channel: 'chanB',
        platformMessageId: feedback.messageId,
        recipient: item.chatId,
        userId: sender.id,
        rating,
      });
    }
    return 'feedback';
  }

  /**
   * A press of an approval request's button: chat approvals checks the sender, the token and the
   * approval, and answers the press itself (refused, decided, or a follow-up asked).
   */
  async function approvalPress(
    item: ChanBInboundItem,
    press: Extract<ChanBFeedback, { via: 'button' }>,
  ): Promise<ChanBIntakeOutcome> {
    await deps.approvalChat.press({
      channel: 'chanB',
      senderId: item.userId,
      token: press.data,
      pressId: press.callbackQueryId,
      platformMessageId: press.platformMessageId,
    });
    return 'approval_press';
  }

  return {
    /**
     * Takes one inbound item in (see {@link createChanBIntake}).
     * @throws ValidationError when the pipeline refuses the input (repeating cannot help);
     *   anything else is passing (database, queue) and worth a retry.
     */
    async handle(item: ChanBInboundItem): Promise<ChanBIntakeOutcome> {
      const pressed = item.feedback;
      if (pressed?.via === 'button' && pressed.data.startsWith(DECISION_TOKEN_PREFIX)) {
        return approvalPress(item, pressed);
      }
      // A rating is never a message: nothing is stored or answered in the chat, no task starts.
      if (item.kind === 'feedback') return rate(item);
      // Before link codes and the pipeline: an approver's edit or reason is theirs to send, whatever it says.
      if (
        item.kind === 'text' &&
        (await deps.approvalChat.intercept({ channel: 'chanB', senderId: item.userId, text: item.text }))
      ) {
        return 'approval_input';
      }
      if (item.kind === 'start') {
        const link = linkCodeOf(item.text, { bare: false });
        if (link.attempt) return linkAttempt(item, link.code);
      }
      if (deps.unknownSender !== 'placeholder' && !(await linking.findUser('chanB', item.userId))) {
        return unknownSender(item);
      }
      if (item.kind === 'start') return storeWithBotReply(item, 'greeting');
      if (item.kind === 'unsupported') return storeWithBotReply(item, 'text_only');
      const result = await inbound.receive({
        channel: 'chanB',
        channelUserId: item.userId,
        text: item.text,
        channelMessageId: item.channelMessageId,
        ...(item.senderName ? { senderName: item.senderName } : {}),
        // A caption: what it came with is kept beside it.
        metadata: metadataOf(item),
      });
      return result.duplicate ? 'duplicate' : 'received';
    },
  };
}

export type ChanBIntake = ReturnType<typeof createChanBIntake>;

/** What the platform told about the message, kept on the stored inbound message. */
function metadataOf(item: ChanBInboundItem): Record<string, unknown> {
  return {
    chatId: item.chatId,
    updateId: item.updateId,
    languageCode: item.language,
    // What a caption came with (a photo, a document), or what was sent without text.
    ...(item.contentType ? { contentType: item.contentType } : {}),
  };
}
