import type { Update } from 'grammy/types';

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
  kind: 'text' | 'start' | 'unsupported';
  /** The sender's numeric user id, as a string: the conversation's channel user id. */
  userId: string;
  /** The chat to answer in; in a private chat the same number as the user id. */
  chatId: string;
  /** Unique per channel: `<chat id>-<message id>` (message ids count per chat). */
  channelMessageId: string;
  /** The text (`text` and `start`), empty otherwise. */
  text: string;
  /** For `unsupported`: the platform's name of what was sent (`photo`, `voice`, `sticker`…). */
  contentType: string | null;
  senderName: string | null;
  /** From the sender's app language (`from.language_code`): uk, ru or en, else en. */
  language: BotLanguage;
  /** `from.language_code` as the app sent it, null when absent (the text's language decides then). */
  languageCode?: string | null;
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
 * answer: updates other than a new message, messages outside a private chat
 * (groups and channels: a reply there would go to everyone), messages from
 * bots or without a sender, and service messages (a member joined, a pinned
 * message) that have no content. Pure.
 */
export function parseUpdate(update: Update): ChanBInboundItem | null {
  const message = update.message;
  if (message?.chat.type !== 'private') return null;
  const from = message.from;
  if (!from || from.is_bot) return null;
  const name = [from.first_name, from.last_name].filter(Boolean).join(' ').trim();
  const base = {
    updateId: update.update_id,
    userId: String(from.id),
    chatId: String(message.chat.id),
    channelMessageId: `${message.chat.id}-${message.message_id}`,
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
  return { ...base, kind: 'unsupported', text: '', contentType };
}
