import type { InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';
import type {
  ApprovalChatTransport,
  ChatAddress,
  ChatButton,
} from '../../modules/chat-approvals/chat-ports.js';
import { type BotApi, botFailure } from './bot-api.js';
import { MAX_MESSAGE_CHARS } from './chan-b.transport.js';

/** The Bot API's limit on a button's `callback_data`, in bytes. */
export const MAX_CALLBACK_DATA_BYTES = 64;

/** A refused or failed Bot API call: the method, the platform's code (null without an answer) and its reason. */
export class ChanBApprovalChatError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | null,
    readonly description: string,
  ) {
    super(`${method}: ${code === null ? 'network error' : code}: ${description}`.slice(0, 500));
    this.name = 'ChanBApprovalChatError';
  }
}

/** The longest toast `answerCallbackQuery` shows, in characters. */
const MAX_TOAST_CHARS = 200;

/** `text` cut to `limit` characters (code points, so no emoji is split), with an ellipsis when cut. */
function cut(text: string, limit = MAX_MESSAGE_CHARS): string {
  const chars = Array.from(text);
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`;
}

/** A button whose press sends `token` back; a token over the platform's limit is a bug of ours, never cut. */
function buttonOf(button: ChatButton): InlineKeyboardButton {
  if (Buffer.byteLength(button.token) > MAX_CALLBACK_DATA_BYTES) {
    throw new Error(`callback data over ${MAX_CALLBACK_DATA_BYTES} bytes: ${button.token.length} characters`);
  }
  return { text: button.label, callback_data: button.token };
}

/** `buttons` laid out `perRow` to a row, in order. */
function keyboardOf(buttons: ChatButton[], perRow: number): InlineKeyboardMarkup {
  const rows: InlineKeyboardButton[][] = [];
  for (let i = 0; i < buttons.length; i += perRow) rows.push(buttons.slice(i, i + perRow).map(buttonOf));
  return { inline_keyboard: rows };
}

/** Whether the platform refused an edit only because the message already reads so (a repeated outcome). */
function notModified(code: number | null, description: string): boolean {
  return code === 400 && /message is not modified/i.test(description);
}

/**
 * Channel B's side of approvals in chat (modules/chat-approvals/chat-ports.ts) over grammY's
 * Bot API client. A request is a message with an inline keyboard of two rows of two buttons
 * (Approve, Edit / Reject, Escalate), each button's `callback_data` the signed token; the
 * outcome replaces the message's text and removes its keyboard (`editMessageText`). Texts
 * go plain (no `parse_mode`): an employee's words and the draft need no escaping, and a
 * formatting refusal cannot lose a request. Every method throws a
 * {@link ChanBApprovalChatError} when the platform refuses or cannot be reached.
 */
export function createChanBApprovalChat(deps: { api: BotApi | null }): ApprovalChatTransport {
  const { api } = deps;

  /** Runs one call, turning the platform's refusal into a {@link ChanBApprovalChatError}. */
  async function call<T>(method: string, run: (bot: BotApi) => Promise<T>): Promise<T> {
    if (!api)
      throw new ChanBApprovalChatError(method, null, 'channel B is not configured (no CHANB_BOT_TOKEN)');
    try {
      return await run(api);
    } catch (error) {
      const failure = botFailure(error);
      throw new ChanBApprovalChatError(method, failure.code, failure.description);
    }
  }

  const send = (to: ChatAddress, text: string, keyboard: InlineKeyboardMarkup | null) =>
    call('sendMessage', (bot) =>
      bot.sendMessage(to.address, cut(text), keyboard ? { reply_markup: keyboard } : {}),
    );

  return {
    channel: 'chanB',

    configured: () => api !== null,

    async sendRequest(to, view) {
      const sent = await send(to, view.text, keyboardOf(view.buttons, 2));
      // The chat's own message number: the press names it (callback_query.message.message_id) and the edit takes it.
      return { kind: 'sent', platformMessageId: String(sent.message_id) };
    },

    async sendText(to, text) {
      return String((await send(to, text, null)).message_id);
    },

    // One person a row: names are long, and a row of two would cut them.
    async sendChoices(to, text, choices) {
      await send(to, text, keyboardOf(choices, 1));
    },

    async showOutcome(to, platformMessageId, text) {
      const messageId = Number(platformMessageId);
      if (!Number.isSafeInteger(messageId))
        throw new Error(`not a channel B message id: ${platformMessageId}`);
      try {
        // An empty keyboard removes the buttons: the request can no longer be pressed.
        await call('editMessageText', (bot) =>
          bot.editMessageText(to.address, messageId, cut(text), { reply_markup: { inline_keyboard: [] } }),
        );
      } catch (error) {
        // The copy already shows this outcome (a pass repeated after a crash): nothing left to do.
        if (error instanceof ChanBApprovalChatError && notModified(error.code, error.description)) return;
        throw error;
      }
    },

    async answerPress(press, text) {
      await call('answerCallbackQuery', (bot) =>
        bot.answerCallbackQuery(press.pressId, text ? { text: cut(text, MAX_TOAST_CHARS) } : {}),
      );
    },
  };
}
