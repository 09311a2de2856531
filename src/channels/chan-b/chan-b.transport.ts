import type { InlineKeyboardMarkup } from 'grammy/types';
import { splitMessage } from '../outbound/split-message.js';
import type { ChannelTransport, OutboundMessage, SendOutcome, SendProgress } from '../outbound/transport.js';
import { type BotApi, botFailure } from './bot-api.js';
import { formatForBot, type ParseMode } from './formatter.js';
import { chanBMessageId, feedbackData } from './updates.js';

/** The Bot API's longest message text, in characters. */
export const MAX_MESSAGE_CHARS = 4096;

/** The modes tried in turn while the platform refuses a part's entities. */
const MODES: readonly ParseMode[] = ['MarkdownV2', 'HTML', 'plain'];

/**
 * The reply cut into parts the Bot API takes, in order. The cut is made on
 * the Markdown (paragraphs first, see split-message.ts) and measured as
 * MarkdownV2, the longest of the three renderings a client counts, so every
 * part fits whichever mode it is finally sent in. Deterministic: a retry
 * cuts the same parts and resumes after the ones already sent.
 */
export function splitForBot(markdown: string): string[] {
  return splitMessage(markdown, MAX_MESSAGE_CHARS, {
    measure: (part) => formatForBot(part, 'MarkdownV2').length,
  });
}

/**
 * The 👍 / 👎 buttons under an auto-sent assistant reply; their callback data names the rating
 * and the reply (updates.ts, `feedbackData`), and the press is checked against the reply's
 * employee on receipt, so the data carries no secret.
 */
export function ratingKeyboard(messageId: string): InlineKeyboardMarkup {
  return {
    inline_keyboard: [
      [
        { text: '👍', callback_data: feedbackData('up', messageId) },
        { text: '👎', callback_data: feedbackData('down', messageId) },
      ],
    ],
  };
}

type PartOutcome =
  | { kind: 'sent'; platformMessageId: string }
  | { kind: 'retry'; reason: string; retryAfterMs?: number }
  | { kind: 'failed'; reason: string };

/**
 * Channel B's sending side (the Telegram Bot API protocol): each part goes
 * out with `sendMessage` to the chat id as MarkdownV2; when the platform
 * answers `400 can't parse entities` the part is sent again as HTML, then as
 * plain text. 429 (with `parameters.retry_after`), 5xx and network errors
 * are worth a retry; any other refusal (blocked by the user, chat not found)
 * is final. An auto-sent assistant reply (`rateable`) carries the 👍 / 👎
 * rating buttons under its last part. Rate limits and retries belong to the
 * shared outbound worker.
 */
export function createChanBTransport(deps: { api: BotApi | null; ratePerMinute: number }): ChannelTransport {
  const { api } = deps;

  async function sendPart(
    bot: BotApi,
    chatId: string,
    markdown: string,
    keyboard: InlineKeyboardMarkup | null,
  ): Promise<PartOutcome> {
    let refused = '';
    const markup = keyboard ? { reply_markup: keyboard } : {};
    for (const mode of MODES) {
      try {
        // The keyboard goes with every mode tried, so a formatting fallback keeps it.
        const sent = await bot.sendMessage(
          chatId,
          formatForBot(markdown, mode),
          mode === 'plain' ? markup : { parse_mode: mode, ...markup },
        );
        // Message ids count per chat: `<chat>-<message>` names a message among all chats, as inbound ones are named.
        return { kind: 'sent', platformMessageId: chanBMessageId(chatId, sent.message_id) };
      } catch (error) {
        const failure = botFailure(error);
        const status = failure.code === null ? 'network error' : `${failure.code}`;
        const reason = `sendMessage: ${status}: ${failure.description}`.slice(0, 500);
        if (failure.code === 400 && /can't parse entities/i.test(failure.description)) {
          refused = reason;
          continue;
        }
        if (failure.code === null || failure.code === 429 || failure.code >= 500) {
          return failure.retryAfterMs !== null
            ? { kind: 'retry', reason, retryAfterMs: failure.retryAfterMs }
            : { kind: 'retry', reason };
        }
        return { kind: 'failed', reason };
      }
    }
    // Plain text has no entities to refuse; reached only if the platform refuses it anyway.
    return { kind: 'failed', reason: refused };
  }

  return {
    channel: 'chanB',
    queue: 'chanB-outbound',
    ratePerMinute: deps.ratePerMinute,
    configured: () => api !== null,

    /**
     * Sends the parts of `message` not yet accepted (after `partsSent`), in
     * order, reporting each accepted part to `progress` before the next is
     * sent, and stopping at the first that is not accepted.
     */
    async send(message: OutboundMessage, progress?: SendProgress): Promise<SendOutcome> {
      if (!api) {
        const reason = 'channel B is not configured (no CHANB_BOT_TOKEN)';
        return { kind: 'failed', reason, partsSent: message.partsSent, platformMessageIds: [] };
      }
      const parts = splitForBot(message.content);
      const platformMessageIds: string[] = [];
      for (let index = message.partsSent; index < parts.length; index++) {
        // Rating buttons once, under the reply's last part.
        const keyboard = message.rateable && index === parts.length - 1 ? ratingKeyboard(message.id) : null;
        const outcome = await sendPart(api, message.channelUserId, parts[index] ?? '', keyboard);
        if (outcome.kind !== 'sent') return { ...outcome, partsSent: index, platformMessageIds };
        platformMessageIds.push(outcome.platformMessageId);
        await progress?.accepted(outcome.platformMessageId);
      }
      return { kind: 'sent', platformMessageIds };
    },
  };
}
