import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chanBTestEnv, chatIds, linkChanBUser } from '../../../test/chanB-app.js';
import { type BotApiRecorder, type ChanBEmulator, startChanBEmulator } from '../../../test/chanB-emulator.js';
import { createUser } from '../../../test/factories.js';
import { createReply, createReplyScene } from '../../../test/feedback-factories.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  startSecondWorker,
  VACATION_FACT,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { approvals, conversations, messages, replyFeedback } from '../../core/db/schema/index.js';
import { CHANB_KEYS } from './poller-state.js';
import { botText } from './texts.js';
import { feedbackData } from './updates.js';

/**
 * Channel B against a Bot API server this team did not write: `telegram-test-api`, a
 * third-party emulator of the Bot API (getMe, getUpdates, sendMessage, answerCallbackQuery,
 * message edits), behind a recording pass-through (test/chanB-emulator.ts). What it cannot show
 * (it ignores `offset` and `timeout`, delivers text messages and button presses only, accepts
 * any parse mode, never answers 409 or 429) is covered by the own fake; docs/channels.md lists
 * which test covers what.
 */

const TOKEN = '7000077:emulator-token';
let emulator: ChanBEmulator;
let front: BotApiRecorder;
let ctx: PipelineTestContext;
const nextChat = chatIds(700_000_000);

beforeAll(async () => {
  emulator = await startChanBEmulator();
  front = await emulator.recorder();
  ctx = await createPipelineTestApp(chanBTestEnv(front.url, TOKEN), { workers: true });
});
afterAll(async () => {
  await ctx?.close();
  await emulator?.close();
});

/** The emulated app of platform user `chat` (a private chat has the user's id). */
const clientOf = (chat: number, token = TOKEN) =>
  emulator.server.getClient(token, { chatId: chat, userId: chat, firstName: 'Olena' });

/** The inbound messages the service stored from `chat` (named `<chat>-<message id>`). */
const inboundFrom = (chat: number, app: PipelineTestContext = ctx) =>
  app.container.db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.channel, 'chanB'),
        eq(messages.direction, 'inbound'),
        like(messages.channelMessageId, `${chat}-%`),
      ),
    );

/** MarkdownV2 as a client shows it: the reserved characters' escapes dropped. */
const shown = (text: unknown) => String(text).replace(/\\(.)/g, '$1');

/** An auto-sent assistant reply with `content` (Markdown), sent to a linked chat by the chanB-outbound worker. */
async function sentAutoReply(content: string) {
  const scene = await createReplyScene(ctx.container);
  const chat = nextChat();
  await linkChanBUser(ctx, chat, scene.employee.user.id);
  const { reply } = await createReply(ctx.container, scene, {
    channel: 'chanB',
    channelUserId: String(chat),
    status: 'queued',
  });
  await ctx.container.db.update(messages).set({ content }).where(eq(messages.id, reply.id));
  await ctx.container.pipeline.routing.enqueue({
    jobs: [{ queue: 'chanB-outbound', messageId: reply.id }],
    notifications: [],
  });
  const delivered = await waitFor('the reply at the emulator', () => emulator.botMessagesTo(chat)[0]);
  const row = await waitFor('the reply marked sent', async () => {
    const [found] = await ctx.container.db.select().from(messages).where(eq(messages.id, reply.id));
    return found?.status === 'sent' ? found : null;
  });
  return { scene, chat, reply: row, delivered };
}

describe('channel B against the telegram-test-api emulator', () => {
  it('long-polls /start and greets it with sendMessage', async () => {
    const chat = nextChat();
    const client = clientOf(chat);
    await client.sendCommand(client.makeCommand('/start'));
    const greeting = await waitFor('the greeting at the emulator', () => emulator.botMessagesTo(chat)[0]);
    expect(shown(greeting.message.text)).toBe(botText('greeting', 'en'));
    const [row] = await inboundFrom(chat);
    expect(row).toMatchObject({ content: '/start' });
    expect(row?.metadata).toMatchObject({ botReply: 'greeting' });
    // The emulator's own answer, as the service received it.
    // The recorder notes a call once the emulator's answer has passed back through it, which can
    // be just after the emulator stored the message.
    const sends = await waitFor('the recorded sendMessage', () => {
      const found = front.calls.filter(
        (c) => c.method === 'sendMessage' && String(c.params.chat_id) === String(chat),
      );
      return found.length > 0 && found;
    });
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ status: 200, response: { ok: true } });
    // The holder prepared polling once: the emulator has no webhook to delete, and getMe answers.
    expect(front.calls.filter((c) => c.method === 'getMe')).toEqual([
      expect.objectContaining({ status: 200, response: expect.objectContaining({ ok: true }) }),
    ]);
    expect(front.polls()).toBeGreaterThan(0);
  });

  it('takes an employee’s private question through the pipeline and delivers the approved reply to the chat', async () => {
    const scene = await createPipelineScene(ctx.container);
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: scene.departmentId });
    const chat = nextChat();
    await linkChanBUser(ctx, chat, scene.employee.user.id);
    const client = clientOf(chat);
    await client.sendMessage(client.makeMessage(VACATION_QUESTION));

    const { inbound, approval } = await waitFor('a pending approval', async () => {
      const [row] = await inboundFrom(chat);
      if (!row) return null;
      const [found] = await ctx.container.db.select().from(approvals).where(eq(approvals.messageId, row.id));
      return found ? { inbound: row, approval: found } : null;
    });
    expect(inbound.content).toBe(VACATION_QUESTION);
    const [conversation] = await ctx.container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, inbound.conversationId));
    expect(conversation).toMatchObject({
      channel: 'chanB',
      channelUserId: String(chat),
      userId: scene.employee.user.id,
    });
    // Nothing reaches the chat before the approver decides.
    expect(emulator.botMessagesTo(chat)).toEqual([]);

    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const reply = await waitFor('the reply at the emulator', () => emulator.botMessagesTo(chat)[0]);
    expect(reply.message.parse_mode).toBe('MarkdownV2');
    expect(shown(reply.message.text)).toContain(VACATION_FACT);
    const sent = await waitFor('the reply marked sent', async () => {
      const [row] = await ctx.container.db
        .select()
        .from(messages)
        .where(eq(messages.approvalId, approval.id));
      return row?.status === 'sent' ? row : null;
    });
    expect(sent).toMatchObject({
      conversationId: inbound.conversationId,
      direction: 'outbound',
      channelMessageId: `${chat}-${reply.messageId}`,
    });
    // The client sees it in its chat, as a user's app would.
    const updates = await client.getUpdates();
    expect(updates.result.map((u) => shown(u.message.text))).toEqual([shown(reply.message.text)]);
  });

  it('sends a Markdown reply as MarkdownV2 entities with the rating buttons, the emulator accepting the parse mode', async () => {
    const { chat, reply, delivered } = await sentAutoReply(
      'You get **twenty four** days of _paid_ leave (see `HR-7`).\n\n- Ask your manager first.',
    );
    expect(delivered.message).toMatchObject({
      parse_mode: 'MarkdownV2',
      text: 'You get *twenty four* days of _paid_ leave \\(see `HR-7`\\)\\.\n\n• Ask your manager first\\.',
      reply_markup: {
        inline_keyboard: [
          [
            { text: '👍', callback_data: feedbackData('up', reply.id) },
            { text: '👎', callback_data: feedbackData('down', reply.id) },
          ],
        ],
      },
    });
    expect(reply.channelMessageId).toBe(`${chat}-${delivered.messageId}`);
    // Accepted at the first mode: no HTML or plain-text retry went out.
    const sends = front.calls.filter(
      (c) => c.method === 'sendMessage' && String(c.params.chat_id) === String(chat),
    );
    expect(sends.map((c) => [c.params.parse_mode, c.status])).toEqual([['MarkdownV2', 200]]);
  });

  it('records a rating button press on the reply and answers it with answerCallbackQuery', async () => {
    const { scene, chat, reply, delivered } = await sentAutoReply(
      'You get twenty four days of paid vacation.',
    );
    const keyboard = delivered.message.reply_markup as { inline_keyboard: { callback_data: string }[][] };
    const up = keyboard.inline_keyboard[0]![0]!.callback_data;
    const client = clientOf(chat);
    await client.sendCallback(client.makeCallbackQuery(up));

    const rating = await waitFor('the rating stored', async () => {
      const [row] = await ctx.container.db
        .select()
        .from(replyFeedback)
        .where(eq(replyFeedback.messageId, reply.id));
      return row;
    });
    expect(rating).toMatchObject({ userId: scene.employee.user.id, rating: 'up', channel: 'chanB' });
    const press = emulator.server.storage.userMessages.find(
      (u) => 'callbackQuery' in u && u.callbackQuery.from.id === chat,
    ) as { callbackId: number };
    const answer = await waitFor('the press answered', () =>
      front.calls.find(
        (c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === String(press.callbackId),
      ),
    );
    expect(answer).toMatchObject({
      params: { text: botText('feedback_thanks', 'en') },
      status: 200,
      response: { ok: true },
    });
    // A press is not a message: nothing stored from the chat, nothing more sent to it.
    expect(await inboundFrom(chat)).toEqual([]);
    expect(emulator.botMessagesTo(chat)).toHaveLength(1);
  });

  it('answers a press that rates nothing of the presser’s without a toast and records nothing', async () => {
    const chat = nextChat();
    const client = clientOf(chat);
    const stranger = '0f0e0d0c-0b0a-0908-0706-050403020100';
    await client.sendCallback(client.makeCallbackQuery(feedbackData('up', stranger)));
    const press = emulator.server.storage.userMessages.find(
      (u) => 'callbackQuery' in u && u.callbackQuery.from.id === chat,
    ) as { callbackId: number };
    const answer = await waitFor('the press answered', () =>
      front.calls.find(
        (c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === String(press.callbackId),
      ),
    );
    expect(answer.params.text).toBeUndefined();
    expect(
      await ctx.container.db.select().from(replyFeedback).where(eq(replyFeedback.messageId, stranger)),
    ).toEqual([]);
    expect(await inboundFrom(chat)).toEqual([]);
    expect(emulator.botMessagesTo(chat)).toEqual([]);
  });

  it('takes each update once although the emulator ignores offset', async () => {
    const chat = nextChat();
    const client = clientOf(chat);
    await client.sendCommand(client.makeCommand('/start'));
    await waitFor('the greeting', () => emulator.botMessagesTo(chat).length > 0);
    await client.sendMessage(client.makeMessage('/start'));
    await waitFor('the second greeting', () => emulator.botMessagesTo(chat).length > 1);
    // Two updates, two greetings: none repeated, none lost.
    expect(await inboundFrom(chat)).toHaveLength(2);
    expect(emulator.botMessagesTo(chat).map((m) => shown(m.message.text))).toEqual([
      botText('greeting', 'en'),
      botText('greeting', 'en'),
    ]);
  });
});

describe.skipIf(!process.env.REDIS_URL)(
  'the elected poller against the emulator (two workers, Redis)',
  () => {
    it('lets one of two workers poll, answers each update once, and hands polling over when the holder stops', async () => {
      // A bot of its own: the file's app polls TOKEN and would take these updates otherwise.
      const token = '7000078:emulator-election-token';
      const fronts = [await emulator.recorder(), await emulator.recorder()] as const;
      const first = await createPipelineTestApp(chanBTestEnv(fronts[0].url, token), { workers: true });
      const second = await startSecondWorker(first.container, chanBTestEnv(fronts[1].url, token));
      const open = new Set<{ close(): Promise<void> }>([first, second]);
      try {
        const pollers = [first.container.chanB.poller!, second.container.chanB.poller!];
        const holder = await waitFor('one holder', () => pollers.find((p) => p.isHolder()));
        const h = pollers.indexOf(holder);
        const o = 1 - h;
        const [holderFront, otherFront] = h === 0 ? fronts : ([fronts[1], fronts[0]] as const);
        await waitFor(
          'the other in standby',
          async () => (await first.container.kv.get(CHANB_KEYS.standby)) === pollers[o]!.workerId,
        );
        await waitFor('a few polls by the holder', () => holderFront.polls() >= 3);

        const chats = [nextChat(), nextChat(), nextChat()];
        for (const chat of chats) {
          const client = clientOf(chat, token);
          await client.sendCommand(client.makeCommand('/start'));
        }
        for (const chat of chats) await waitFor('a greeting', () => emulator.botMessagesTo(chat).length > 0);
        // Only the holder called the platform to poll (the sending side runs on both workers).
        expect(otherFront.polls()).toBe(0);
        expect(otherFront.calls.filter((c) => c.method !== 'sendMessage')).toEqual([]);
        expect(pollers[o]!.isHolder()).toBe(false);
        for (const chat of chats) expect(await inboundFrom(chat, first)).toHaveLength(1);

        // The holder stops; the other worker takes over and answers the next update, once.
        const instances = [first, second];
        await instances[h]!.close();
        open.delete(instances[h]!);
        await waitFor('the takeover', () => pollers[o]!.isHolder());
        const staying = instances[o]!;
        const late = nextChat();
        const client = clientOf(late, token);
        await client.sendCommand(client.makeCommand('/start'));
        await waitFor('the greeting after the takeover', () => emulator.botMessagesTo(late).length > 0);
        expect(otherFront.polls()).toBeGreaterThan(0);
        const [row] = await staying.container.db
          .select()
          .from(messages)
          .where(and(eq(messages.channel, 'chanB'), like(messages.channelMessageId, `${late}-%`)));
        expect(row).toMatchObject({ content: '/start', direction: 'inbound' });
        for (const chat of [...chats, late]) expect(emulator.botMessagesTo(chat)).toHaveLength(1);
      } finally {
        for (const instance of open) await instance.close();
      }
    });
  },
);
