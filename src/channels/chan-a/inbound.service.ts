import type { UnknownSenderPolicy } from '../../core/config/config.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { guessLanguage } from '../../core/llm/extractive-responder.js';
import type { ChannelLinking } from '../../modules/channel-identities/channel-linking.service.js';
import { linkCodeOf } from '../../modules/channel-identities/link-codes.js';
import type { ApprovalChatInbound } from '../../modules/chat-approvals/chat-ports.js';
import type { ConversationsRepository } from '../../modules/conversations/conversations.repository.js';
import type { MessagesRepository } from '../../modules/conversations/messages.repository.js';
import type { FeedbackService } from '../../modules/feedback/feedback.service.js';
import { ratingOfEmoji } from '../../modules/feedback/reactions.js';
import { type InboundService, MAX_INBOUND_CHARS } from '../../pipeline/inbound.service.js';
import type { ReplyRouting } from '../../pipeline/routing.js';
import type { SenderResolver } from '../../pipeline/senders.js';
import type { SendersRepository } from '../../pipeline/senders.repository.js';
import type { DirectReplies } from '../outbound/direct-reply.js';
import { MediaError, type MediaReader } from './media.js';
import { type FixedReply, fixedReply, fixedReplyLanguage } from './replies.js';
import type { InboundItem } from './webhook-payload.js';

/** Key-value key of the time the last inbound message was taken in (ISO 8601), for GET /chanA/status. */
export const LAST_INBOUND_KEY = 'chanA:last-inbound-at';

/** What one inbound message came to. */
export type IntakeOutcome =
  /** Handed to the pipeline: a task answers it. */
  | 'received'
  /** Stored, answered with a fixed reply (a type that is not read, or a file without readable text). */
  | 'fixed_reply'
  /** Seen before: nothing new was stored. */
  | 'duplicate'
  /** A link code (alone, or as `/start <code>`): answered, not stored (docs/channels.md, linking). */
  | 'link_attempt'
  /** From a sender linked to nobody under CHANNEL_UNKNOWN_SENDER=instruct: told how to link, nothing stored. */
  | 'instructed'
  /** From a sender linked to nobody under CHANNEL_UNKNOWN_SENDER=reject: nothing stored or sent. */
  | 'rejected'
  /** A reaction: a rating of the reply it is on when it counts as one; never stored as a message, never answered. */
  | 'reaction'
  /** An approver's press on an approval request: handed to chat approvals; never stored, never the pipeline. */
  | 'approval_press'
  /** A text chat approvals awaited (an edit, a reason, /cancel): consumed there; nothing stored, never the pipeline. */
  | 'approval_input';

export interface IntakeLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface ChanAIntakeDeps {
  db: Database;
  kv: KeyValue;
  logger: IntakeLogger;
  inbound: InboundService;
  senders: SenderResolver;
  conversations: Pick<ConversationsRepository, 'openOrFind' | 'touch'>;
  messages: Pick<MessagesRepository, 'insertMessage' | 'turnsBefore' | 'findMessageByChannelId'>;
  /** Who a sender is, without creating anyone. */
  senderRows: Pick<SendersRepository, 'findSender'>;
  routing: Pick<ReplyRouting, 'deliverReply' | 'publish'>;
  media: MediaReader;
  /** The employee profile's preferences (for the language of fixed replies). */
  preferencesOf(userId: string): Promise<Record<string, unknown> | null>;
  /** Sender → user and link codes (modules/channel-identities). */
  linking: Pick<ChannelLinking, 'findUser' | 'redeem' | 'instructions'>;
  /** CHANNEL_UNKNOWN_SENDER. */
  unknownSender: UnknownSenderPolicy;
  /** Replies outside a conversation (link confirmations, instructions), by the transport. */
  replies: DirectReplies;
  /** Employees' ratings (modules/feedback): a reaction on an assistant reply is one. */
  feedback: Pick<FeedbackService, 'recordPlatformFeedback'>;
  /** Approvals in chat (modules/chat-approvals): approvers' presses and the answers they were asked for. */
  approvalChat: ApprovalChatInbound;
}

const LABEL: Record<string, string> = { image: 'image text', document: 'document text' };

/** Caption and extracted text, each part labelled, within the inbound text limit. */
function composeText(item: InboundItem, extracted: string | null): string {
  const caption = item.media?.caption ?? '';
  if (!extracted) return caption;
  const label =
    item.type === 'document' && item.media?.filename
      ? `[${LABEL.document}: ${item.media.filename}]`
      : `[${LABEL[item.type] ?? 'attachment text'}]`;
  const head = caption ? `${caption}\n\n${label}\n` : `${label}\n`;
  const room = MAX_INBOUND_CHARS - head.length;
  return `${head}${extracted.length > room ? `${extracted.slice(0, room - 1)}…` : extracted}`;
}

/**
 * The `chanA-inbound` consumer's work for one message: an approver's press
 * goes to chat approvals, and so does a text they were asked for; other
 * text (and button or list replies) goes to the pipeline as it is; an image or document is
 * downloaded and read (OCR, PDF, DOCX) and goes to the pipeline as caption
 * plus extracted text; any other type is stored and answered with a fixed
 * reply that says what is read.
 */
export function createChanAIntake(deps: ChanAIntakeDeps) {
  const { db, kv, logger, inbound, senders, conversations, media, linking, replies } = deps;

  /**
   * Before the pipeline: a message that is a link code links the sender; a
   * sender linked to nobody (no identity, no user with the number as phone,
   * for whom the identity is recorded at this first match) is handled by
   * CHANNEL_UNKNOWN_SENDER. Answers the outcome, or null when the message
   * goes on as usual.
   */
  async function beforePipeline(item: InboundItem): Promise<IntakeOutcome | null> {
    const recipient = item.from.replace(/\D/g, '');
    const link = item.type === 'text' && item.text ? linkCodeOf(item.text, { bare: true }) : null;
    if (link?.attempt) {
      const sent = await replies.send(item.id, recipient, async () => {
        const result = await linking.redeem({
          channel: 'chanA',
          channelUserId: recipient,
          code: link.code,
          messageLanguage: guessLanguage(item.text ?? ''),
        });
        return result.text;
      });
      return sent === 'duplicate' ? 'duplicate' : 'link_attempt';
    }
    if (await linking.findUser('chanA', recipient)) return null;
    if (deps.unknownSender === 'placeholder') return null;
    if (deps.unknownSender === 'reject') return 'rejected';
    const language = guessLanguage(item.text ?? item.media?.caption ?? '');
    const sent = await replies.send(item.id, recipient, async () => linking.instructions(language));
    return sent === 'duplicate' ? 'duplicate' : 'instructed';
  }

  /**
   * Stores the message (a placeholder content, the attachment in metadata)
   * and queues the fixed reply on `chanA-outbound` through the pipeline's
   * delivery, so the reply is sent, rate-limited and tracked like any other.
   * A deactivated sender's message is stored and not answered.
   */
  async function storeWithFixedReply(
    item: InboundItem,
    kind: FixedReply,
    attachment: Record<string, unknown>,
  ): Promise<IntakeOutcome> {
    const { user, channelUserId } = await senders.resolve({
      channel: 'chanA',
      channelUserId: item.from,
      ...(item.profileName ? { senderName: item.profileName } : {}),
    });
    const preferences = await deps.preferencesOf(user.id);
    const effects = await db.transaction(async (tx) => {
      const conversation = await conversations.openOrFind('chanA', user, channelUserId, tx);
      const stored = await deps.messages.insertMessage(
        {
          conversationId: conversation.id,
          channel: 'chanA',
          direction: 'inbound',
          content: `[${item.type} message]`,
          channelMessageId: item.id,
          metadata: {
            attachment,
            fixedReply: kind,
            ...(item.profileName ? { senderName: item.profileName } : {}),
          },
        },
        tx,
      );
      if (!stored) return null;
      await conversations.touch(conversation.id, { at: stored.createdAt }, tx);
      if (!user.isActive) return { jobs: [], notifications: [] };
      const turns = await deps.messages.turnsBefore(stored, 10, tx);
      const lastText = turns.filter((t) => t.role === 'user' && !t.content.startsWith('[')).pop()?.content;
      // The user's own language when they chose one, else the profile's preference, else their last text's.
      const language = fixedReplyLanguage(user.language ?? preferences?.language, lastText ?? null);
      const reply = await deps.routing.deliverReply(tx, {
        conversation,
        taskId: null,
        approvalId: null,
        content: fixedReply(kind, language),
      });
      return reply.effects;
    });
    if (!effects) return 'duplicate';
    await deps.routing.publish(effects);
    return 'fixed_reply';
  }

  /**
   * A reaction rates the reply it is on (👍 up, 👎 down, removed: no rating; other emoji say
   * nothing), by the sender as the inbound routing finds them (no user is created for it); it is
   * never a message of the conversation: nothing else is stored, answered or run.
   */
  async function react(item: InboundItem): Promise<IntakeOutcome> {
    const rating = ratingOfEmoji(item.reaction?.emoji);
    if (!item.reaction || rating === undefined) return 'reaction';
    const { lookup } = senders.identify({ channel: 'chanA', channelUserId: item.from });
    const sender = await deps.senderRows.findSender(lookup);
    if (!sender) return 'reaction';
    await deps.feedback.recordPlatformFeedback({
      channel: 'chanA',
      platformMessageId: item.reaction.messageId,
      userId: sender.id,
      rating,
    });
    return 'reaction';
  }

  /** The text of an image or document, or null (logged) when it cannot be read. */
  async function mediaText(item: InboundItem, lastAttempt: boolean) {
    const announced = item.media;
    if (!announced) return { text: null, mimeType: null, error: 'the message names no media id' };
    try {
      const read = await media.readMedia(announced.id, announced.mimeType);
      return { text: read.text || null, mimeType: read.mimeType, error: read.text ? null : 'no text found' };
    } catch (error) {
      // A passing failure (the platform's 5xx, the network) is worth another try while tries remain.
      if (error instanceof MediaError && error.transient && !lastAttempt) throw error;
      const reason = (error as Error).message.slice(0, 300);
      logger.warn(
        { messageId: item.id, mediaId: announced.id, reason },
        'chanA: media text could not be read',
      );
      return { text: null, mimeType: announced.mimeType, error: reason };
    }
  }

  return {
    /**
     * Takes one inbound message in (see {@link createChanAIntake}). A
     * platform message id seen before is not processed again. Records the
     * time under {@link LAST_INBOUND_KEY}.
     * @param lastAttempt on the job's last try a media download that fails
     *   for a passing reason is given up (the caption or a fixed reply
     *   answers) instead of thrown for a retry.
     * @throws for passing failures (database, queue, media while tries remain): the job retries.
     */
    async handle(item: InboundItem, options: { lastAttempt: boolean }): Promise<IntakeOutcome> {
      await kv.set(LAST_INBOUND_KEY, new Date().toISOString());
      // Before anything that stores or answers: a reaction never reaches the "only text" reply.
      if (item.type === 'reaction') return react(item);
      if (item.press) {
        // Chat approvals checks the sender, the token and the approval; a repeat of the press is refused there.
        await deps.approvalChat.press({
          channel: 'chanA',
          senderId: item.from,
          token: item.press.token,
          pressId: item.id,
          platformMessageId: item.press.platformMessageId,
        });
        return 'approval_press';
      }
      if (await deps.messages.findMessageByChannelId('chanA', item.id)) return 'duplicate';
      // Before link codes and the pipeline: an approver's edit or reason is theirs to send, whatever it says.
      // Any text also opens the approver's 24-hour window: chat approvals sends the requests that waited for it.
      if (
        item.text &&
        (await deps.approvalChat.intercept({ channel: 'chanA', senderId: item.from, text: item.text }))
      )
        return 'approval_input';
      const handled = await beforePipeline(item);
      if (handled) return handled;
      const common = {
        channel: 'chanA' as const,
        channelUserId: item.from,
        channelMessageId: item.id,
        ...(item.profileName ? { senderName: item.profileName } : {}),
      };
      if (item.text) {
        const result = await inbound.receive({
          ...common,
          text: item.text,
          ...(item.type !== 'text' ? { metadata: { platformType: item.type } } : {}),
        });
        return result.duplicate ? 'duplicate' : 'received';
      }
      const attachment: Record<string, unknown> = {
        type: item.type,
        mimeType: item.media?.mimeType ?? null,
        mediaId: item.media?.id ?? null,
        ...(item.media?.filename ? { filename: item.media.filename } : {}),
      };
      if (item.type !== 'image' && item.type !== 'document') {
        return storeWithFixedReply(item, 'unsupported', attachment);
      }
      const read = await mediaText(item, options.lastAttempt);
      attachment.mimeType = read.mimeType;
      attachment.characters = read.text?.length ?? 0;
      if (read.error) attachment.error = read.error;
      const text = composeText(item, read.text);
      if (!text.trim()) return storeWithFixedReply(item, 'unreadable', attachment);
      const result = await inbound.receive({ ...common, text, metadata: { attachment } });
      return result.duplicate ? 'duplicate' : 'received';
    },
  };
}

export type ChanAIntake = ReturnType<typeof createChanAIntake>;
