import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBotServer, startFakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import type {
  ApprovalChatTransport,
  ChatAddress,
  ChatRequestView,
} from '../../modules/chat-approvals/chat-ports.js';
import { createDecisionTokens, DECISIONS } from '../../modules/chat-approvals/decision-token.js';
import { ChanBApprovalChatError, createChanBApprovalChat, MAX_CALLBACK_DATA_BYTES } from './approval-chat.js';
import { createBotApi } from './bot-api.js';

const TOKEN = '5550001:approval-chat-test';

let bot: FakeBotServer;
let chat: ApprovalChatTransport;

beforeAll(async () => {
  bot = await startFakeBotServer({ token: TOKEN });
  chat = createChanBApprovalChat({ api: createBotApi({ botToken: TOKEN, apiBaseUrl: bot.url }) });
});
afterAll(async () => {
  await bot?.close();
});

const tokens = createDecisionTokens('chanB-approval-chat-test-secret');
let nextChat = 710_000_000;
/** A chat no other test writes to. */
const newChat = (): ChatAddress => ({ channel: 'chanB', address: String(nextChat++) });

/** A request as the core writes it: four buttons, each carrying a signed token. */
function requestView(text: string): ChatRequestView {
  const requestId = randomUUID();
  const labels = { approve: 'Approve', edit: 'Edit', reject: 'Reject', escalate: 'Escalate' } as const;
  return {
    text,
    language: 'en',
    buttons: (['approve', 'edit', 'reject', 'escalate'] as const).map((decision) => ({
      decision,
      label: labels[decision],
      token: tokens.sign({ requestId, decision }),
    })),
  };
}

/** The body of the last call of `method` to `chatId`. */
const lastBody = (method: string, chatId: string) =>
  bot.callsOf(method).findLast((c) => String(c.body.chat_id) === chatId)?.body;

describe('channel B approval chat transport', () => {
  it('sends a request as plain text under an inline keyboard of two rows of two, the tokens as callback data', async () => {
    const to = newChat();
    // Markdown's reserved characters: refused by the platform under MarkdownV2, taken as they are in plain text.
    const view = requestView('Olena asks: can I take *2* days off (next week)?\nDraft: Yes_ you can.');
    const result = await chat.sendRequest(to, view);

    const body = lastBody('sendMessage', to.address);
    expect(body).toBeDefined();
    expect(body?.parse_mode).toBeUndefined();
    expect(body?.text).toBe(view.text);
    const tokensOf = view.buttons.map((b) => b.token);
    expect(body?.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Approve', callback_data: tokensOf[0] },
          { text: 'Edit', callback_data: tokensOf[1] },
        ],
        [
          { text: 'Reject', callback_data: tokensOf[2] },
          { text: 'Escalate', callback_data: tokensOf[3] },
        ],
      ],
    });
    const sent = bot.sent.findLast((m) => m.chatId === to.address);
    expect(sent?.plain).toBe(view.text);
    expect(result).toEqual({ kind: 'sent', platformMessageId: String(sent?.messageId) });
  });

  it('keeps every token the core signs within the 64 bytes of callback data, and refuses a longer one unsent', async () => {
    const requestId = randomUUID();
    const all = [
      ...DECISIONS.map((decision) => tokens.sign({ requestId, decision })),
      tokens.sign({ requestId, decision: 'escalate-to', choice: 99 }),
    ];
    for (const token of all) expect(Buffer.byteLength(token)).toBeLessThanOrEqual(MAX_CALLBACK_DATA_BYTES);

    const to = newChat();
    // The fake checks the platform's limit too: the whole list goes through.
    await chat.sendChoices(
      to,
      'Escalate to whom?',
      all.map((token, i) => ({ label: `Person ${i}`, token })),
      'Choose',
    );
    expect(bot.sent.filter((m) => m.chatId === to.address)).toHaveLength(1);

    const over = newChat();
    const tooLong = `apv:${'x'.repeat(MAX_CALLBACK_DATA_BYTES - 3)}`;
    const view = requestView('Too long a token');
    view.buttons[1] = { ...view.buttons[1]!, token: tooLong };
    await expect(chat.sendRequest(over, view)).rejects.toThrow(/callback data over 64 bytes/);
    expect(bot.callsOf('sendMessage').some((c) => String(c.body.chat_id) === over.address)).toBe(false);
  });

  it('sends a text without buttons and answers its message id; an over-long text is cut to the limit', async () => {
    const to = newChat();
    const id = await chat.sendText(to, 'Write the new text, or /cancel.');
    const body = lastBody('sendMessage', to.address);
    expect(body).toMatchObject({ text: 'Write the new text, or /cancel.' });
    expect(body?.reply_markup).toBeUndefined();
    expect(body?.parse_mode).toBeUndefined();
    expect(id).toBe(String(bot.sent.findLast((m) => m.chatId === to.address)?.messageId));

    await chat.sendText(to, 'é'.repeat(5000));
    const cut = bot.sent.findLast((m) => m.chatId === to.address)?.plain ?? '';
    expect(Array.from(cut)).toHaveLength(4096);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('sends choices one button a row, in order', async () => {
    const to = newChat();
    const requestId = randomUUID();
    const choices = ['Ivan Petrenko', 'Maria Koval', 'Oksana Shevchenko'].map((label, choice) => ({
      label,
      token: tokens.sign({ requestId, decision: 'escalate-to', choice }),
    }));
    await chat.sendChoices(to, 'Escalate to:', choices, 'Choose');
    expect(lastBody('sendMessage', to.address)?.reply_markup).toEqual({
      inline_keyboard: choices.map((c) => [{ text: c.label, callback_data: c.token }]),
    });
  });

  it('shows the outcome by editing the request and removing its buttons; the same outcome again is no failure', async () => {
    const to = newChat();
    const { platformMessageId } = (await chat.sendRequest(to, requestView('Approve this?'))) as {
      platformMessageId: string;
    };
    const messageId = Number(platformMessageId);
    expect(bot.messageAt(to.address, messageId)?.replyMarkup).not.toBeNull();

    await chat.showOutcome(to, platformMessageId, 'Approve this?\n\nApproved by Olena at 10:42');
    const edit = lastBody('editMessageText', to.address);
    expect(edit).toMatchObject({ chat_id: to.address, message_id: messageId });
    expect(edit?.parse_mode).toBeUndefined();
    const now = bot.messageAt(to.address, messageId);
    expect(now?.plain).toBe('Approve this?\n\nApproved by Olena at 10:42');
    expect(now?.replyMarkup?.inline_keyboard ?? []).toEqual([]);

    // A pass repeated after a crash: the platform answers "message is not modified", which is the outcome shown.
    await chat.showOutcome(to, platformMessageId, 'Approve this?\n\nApproved by Olena at 10:42');
    const repeated = bot.callsOf('editMessageText').at(-1);
    expect(repeated?.status).toBe(400);
    expect(bot.edited.filter((e) => e.chatId === to.address)).toHaveLength(1);
  });

  it('throws when the platform refuses an edit for another reason', async () => {
    const to = newChat();
    await expect(chat.showOutcome(to, '999', 'Approved')).rejects.toThrow(/400: .*message to edit not found/);
    await expect(chat.showOutcome(to, 'not-a-number', 'Approved')).rejects.toThrow(
      /not a channel B message id/,
    );
  });

  it('answers a press with a toast, or silently', async () => {
    await chat.answerPress({ pressId: 'cb-approval-1', platformMessageId: '3' }, 'Already decided');
    await chat.answerPress({ pressId: 'cb-approval-2', platformMessageId: null }, null);
    expect(bot.answered).toEqual(
      expect.arrayContaining([
        { callbackQueryId: 'cb-approval-1', text: 'Already decided' },
        { callbackQueryId: 'cb-approval-2', text: null },
      ]),
    );
    const silent = bot
      .callsOf('answerCallbackQuery')
      .find((c) => c.body.callback_query_id === 'cb-approval-2');
    expect(silent?.body).not.toHaveProperty('text');
  });

  it('throws with the reason when the approver blocked the bot (403), and on a failed press answer', async () => {
    const to = newChat();
    bot.replyNext('sendMessage', bot.error(403, 'Forbidden: bot was blocked by the user'));
    const refused = chat.sendRequest(to, requestView('Approve this?'));
    await expect(refused).rejects.toBeInstanceOf(ChanBApprovalChatError);
    await expect(refused).rejects.toMatchObject({
      code: 403,
      message: 'sendMessage: 403: Forbidden: bot was blocked by the user',
    });

    bot.replyNext(
      'answerCallbackQuery',
      bot.error(400, 'Bad Request: query is too old and response timeout expired'),
    );
    await expect(chat.answerPress({ pressId: 'cb-old', platformMessageId: null }, null)).rejects.toThrow(
      /answerCallbackQuery: 400: .*query is too old/,
    );
  });

  it('is not configured without a bot token, and then refuses to send', async () => {
    const none = createChanBApprovalChat({ api: null });
    expect(none.configured()).toBe(false);
    expect(chat.configured()).toBe(true);
    await expect(none.sendText(newChat(), 'hello')).rejects.toThrow(/not configured/);
  });
});
