import type { Update } from 'grammy/types';
import { ratingOfEmoji } from '../../modules/feedback/reactions.js';

/**
 * The id under which a channel B message is stored (`messages.channel_message_id`): the Bot API
 * numbers messages per chat, so the chat's id comes first. Inbound and outbound alike.
 */
export function chanBMessageId(chatId: string | number, messageId: number): string {
  return `${chatId}-${messageId}`;
}
/** en, uk or ru: the language of the texts the bot writes itself. */
export type BotLanguage = 'en' | 'uk' | 'ru';

/** One message from a private chat, as the `chanB-inbound` consumer takes it. */
export interface ChanBInboundItem {
  /** The platform's update id (the job id is derived from it). */
  updateId: number;
  /**
   * What the message is: `text` goes to the pipeline, `start` (the `/start`
   * command a chat opens with) is greeted, anything else (photo, voice,
   * sticker, …) is answered that only text is read.
   */
  kind: 'text' | 'start' | 'unsupported' | 'feedback';
  /** The sender's numeric user id, as a string: the conversation's channel user id. */
  userId: string;
  /** The chat to answer in; in a private chat the same number as the user id. */
  chatId: string;
  /** Unique per channel: `<chat id>-<message id>` (message ids count per chat). */
  channelMessageId: string;
  /** The text (`text` and `start`), empty otherwise. */
  text: string;
  /**
   * What was sent besides text (`photo`, `voice`, `sticker`…): for `unsupported`, and for a
   * `text` that is the caption of a photo, video or file. Null for a plain text.
   */
  contentType: string | null;
  senderName: string | null;
  /** From the sender's app language (`from.language_code`): uk, ru or en, else en. */
  language: BotLanguage;
  /** `from.language_code` as the app sent it, null when absent (the text's language decides then). */
  languageCode?: string | null;
  /** For `feedback`: a rating button pressed under a reply, or a reaction set on one. */
  feedback?: ChanBFeedback;
}

/** A rating as an update carries it (modules/feedback records it). */
export type ChanBFeedback =
  /**
   * A `callback_query`: its id (to answer it), the button's callback data and the number of the
   * message the button is under in its chat (`message.message_id`, as a string; null when the
   * platform left the message out, as it does for one too old to show).
   */
  | { via: 'button'; callbackQueryId: string; data: string; platformMessageId: string | null }
  /**
   * A `message_reaction`: the message reacted to (its id in the chat) and the reaction now set:
   * the first 👍 or 👎 among them, another emoji when none is, empty when the reaction was removed.
   */
  | { via: 'reaction'; messageId: string; emoji: string };

/** Callback data of a rating button: `fb:<u|d>:<message id without dashes>` (37 bytes of the 64 allowed). */
const FEEDBACK_DATA = /^fb:([ud]):([0-9a-f]{32})$/;

/** The callback data of the 👍 (`up`) or 👎 (`down`) button under reply `messageId`. */
export function feedbackData(rating: 'up' | 'down', messageId: string): string {
  return `fb:${rating === 'up' ? 'u' : 'd'}:${messageId.replace(/-/g, '').toLowerCase()}`;
}

/** The rating and reply id a button's callback data names; null for data that is not a rating button's. */
export function parseFeedbackData(data: string): { rating: 'up' | 'down'; messageId: string } | null {
  const match = FEEDBACK_DATA.exec(data);
  if (!match) return null;
  const hex = match[2]!;
  const messageId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { rating: match[1] === 'u' ? 'up' : 'down', messageId };
}

/** The emoji a reaction update leaves set, as {@link ChanBFeedback} `reaction` describes it. */
function reactionEmoji(reactions: ReadonlyArray<{ type: string; emoji?: string }>): string {
  if (reactions.length === 0) return '';
  const emoji = reactions.flatMap((r) => (r.type === 'emoji' && r.emoji ? [r.emoji] : []));
  // A custom or paid reaction says nothing about the reply: a placeholder that rates nothing.
  return emoji.find((e) => ratingOfEmoji(e) !== undefined) ?? emoji[0] ?? '?';
}

/**
 * The rating an update carries: a `callback_query` from a button under a message of a private
 * chat, or a `message_reaction` by a user in a private chat; null for anything else. Pure.
 */
function parseFeedback(update: Update): ChanBInboundItem | null {
  const callback = update.callback_query;
  const reaction = update.message_reaction;
  const from = callback?.from ?? reaction?.user;
  const chat = callback ? callback.message?.chat : reaction?.chat;
  if (!from || from.is_bot || chat?.type !== 'private') return null;
  const base = {
    updateId: update.update_id,
    kind: 'feedback' as const,
    userId: String(from.id),
    chatId: String(chat.id),
    text: '',
    contentType: null,
    senderName: null,
    language: botLanguage(from.language_code),
    languageCode: from.language_code ?? null,
  };
  if (callback) {
    return {
      ...base,
      channelMessageId: `${chat.id}-cb-${callback.id}`,
      feedback: {
        via: 'button',
        callbackQueryId: callback.id,
        data: callback.data ?? '',
        platformMessageId: callback.message ? String(callback.message.message_id) : null,
      },
    };
  }
  if (!reaction) return null;
  return {
    ...base,
    channelMessageId: `${chat.id}-re-${update.update_id}`,
    feedback: {
      via: 'reaction',
      messageId: chanBMessageId(chat.id, reaction.message_id),
      emoji: reactionEmoji(reaction.new_reaction as ReadonlyArray<{ type: string; emoji?: string }>),
    },
  };
}

/** Message fields that carry something other than text, in the order they are named. */
const CONTENT_TYPES = [
  'photo',
  'video',
  'voice',
  'audio',
  'document',
  'sticker',
  'animation',
  'video_note',
  'contact',
  'location',
  'venue',
  'poll',
  'dice',
  'game',
  'story',
] as const;

/** uk, ru and en as given by the app (`uk`, `ru-RU`, `en-GB`), anything else en. */
export function botLanguage(code: string | undefined): BotLanguage {
  const short = (code ?? '').trim().toLowerCase().slice(0, 2);
  return short === 'uk' || short === 'ru' ? short : 'en';
}

/**
 * The inbound item an update carries, or null for what the bot does not
 * answer: a rating (a button press or a reaction, see parseFeedback) is
 * `feedback`; updates other than these and a new message, messages outside a private chat
 * (groups and channels: a reply there would go to everyone), messages from
 * bots or without a sender, and service messages (a member joined, a pinned
 * message) that have no content. Pure.
 */
export function parseUpdate(update: Update): ChanBInboundItem | null {
  if (update.callback_query || update.message_reaction) return parseFeedback(update);
  const message = update.message;
  if (message?.chat.type !== 'private') return null;
  const from = message.from;
  if (!from || from.is_bot) return null;
  const name = [from.first_name, from.last_name].filter(Boolean).join(' ').trim();
  const base = {
    updateId: update.update_id,
    userId: String(from.id),
    chatId: String(message.chat.id),
    channelMessageId: chanBMessageId(message.chat.id, message.message_id),
    senderName: name || from.username || null,
    language: botLanguage(from.language_code),
    languageCode: from.language_code ?? null,
  };
  if (typeof message.text === 'string') {
    const text = message.text;
    // `/start` or `/start <payload>` (a deep link), also addressed as `/start@bot_name`.
    const start = /^\/start(@\w+)?(\s|$)/.test(text);
    return { ...base, kind: start ? 'start' : 'text', text, contentType: null };
  }
  const record = message as unknown as Record<string, unknown>;
  const contentType = CONTENT_TYPES.find((type) => record[type] !== undefined);
  if (!contentType) return null;
  // A photo, video or file is not read, but the words sent with it are the employee's question.
  const caption = typeof message.caption === 'string' ? message.caption.trim() : '';
  if (caption) return { ...base, kind: 'text', text: caption, contentType };
  return { ...base, kind: 'unsupported', text: '', contentType };
}
