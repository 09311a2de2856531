import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Update } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChanBTestApp, chatIds, linkChanBUser, startChanBTestApp } from '../../../test/chanB-app.js';
import { createUser } from '../../../test/factories.js';
import {
  type FakeBotServer,
  type PushedUpdate,
  startFakeBotServer,
} from '../../../test/fakes/chanB-bot-server.js';
import { createReply, createReplyScene, type ReplyScene } from '../../../test/feedback-factories.js';
import { type PipelineTestContext, waitFor } from '../../../test/pipeline-factories.js';
import { createBotApi } from '../../channels/chan-b/bot-api.js';
import { createChanBTransport, MAX_MESSAGE_CHARS } from '../../channels/chan-b/chan-b.transport.js';
import { botText } from '../../channels/chan-b/texts.js';
import { feedbackData, parseUpdate } from '../../channels/chan-b/updates.js';
import { agentTasks, messages, replyFeedback } from '../../core/db/schema/index.js';

const TOKEN = '7000001:feedback-test-token';

let app: ChanBTestApp;
let bot: FakeBotServer;
let ctx: PipelineTestContext;

beforeAll(async () => {
  app = await startChanBTestApp({ token: TOKEN });
  ({ bot, ctx } = app);
});
afterAll(() => app?.close());

const newChat = chatIds(800_000_000);

/** The employee linked to platform user `chat`, as a stored identity would link them. */
async function linked(scene: ReplyScene, chat: number) {
  await linkChanBUser(ctx, chat, scene.employee.user.id);
}

/** Sends the replies through the real chanB-outbound worker; answers each reply's platform message id. */
async function sendThrough(replyIds: string[]): Promise<Map<string, number>> {
  await ctx.container.pipeline.routing.enqueue({
    jobs: replyIds.map((messageId) => ({ queue: 'chanB-outbound', messageId })),
    notifications: [],
  });
  const rows = await waitFor('the replies to be sent', async () => {
    const sent = await ctx.container.db.select().from(messages).where(inArray(messages.id, replyIds));
    return sent.every((m) => m.status === 'sent') ? sent : null;
  });
  // Stored as `<chat>-<message>`: the Bot API's message id is the part after the chat's.
  return new Map(rows.map((m) => [m.id, Number(m.channelMessageId!.split('-').at(-1))]));
}

const feedbackOf = (messageId: string) =>
  ctx.container.db.select().from(replyFeedback).where(eq(replyFeedback.messageId, messageId));

/** A chat with a sent auto reply, linked to the scene's employee. */
async function sentReply() {
  const scene = await createReplyScene(ctx.container);
  const chat = newChat();
  await linked(scene, chat);
  const created = await createReply(ctx.container, scene, {
    channel: 'chanB',
    channelUserId: String(chat),
    status: 'queued',
  });
  const platformIds = await sendThrough([created.reply.id]);
  return { scene, chat, ...created, platformId: platformIds.get(created.reply.id)! };
}

/** Pushes a button press and waits until the bot has answered it. */
async function press(update: PushedUpdate) {
  const id = (update.callback_query as { id: string }).id;
  bot.pushUpdate(update);
  return waitFor('the press to be answered', () => bot.answered.find((a) => a.callbackQueryId === id));
}

/** The intake's work on one update, taken straight (for what leaves nothing to wait for). */
const intake = (update: PushedUpdate) => {
  const item = parseUpdate({ ...update, update_id: 1 } as unknown as Update);
  if (!item) throw new Error('the update carries nothing');
  return ctx.container.chanB.intake.handle(item);
};

describe('channel B rating buttons', () => {
  it('go under auto-sent assistant replies only, with callback data that fits 64 bytes', async () => {
    const scene = await createReplyScene(ctx.container);
    const chat = newChat();
    await linked(scene, chat);
    const auto = await createReply(ctx.container, scene, {
      channel: 'chanB',
      channelUserId: String(chat),
      status: 'queued',
    });
    const common = { channel: 'chanB' as const, conversationId: auto.conversationId, status: 'queued' };
    const approved = await createReply(ctx.container, scene, { ...common, approved: true });
    const fixed = await createReply(ctx.container, scene, { ...common, fixedText: true });
    const ids = await sendThrough([auto.reply.id, approved.reply.id, fixed.reply.id]);
    const markupOf = (replyId: string) => bot.sent.find((s) => s.messageId === ids.get(replyId))?.replyMarkup;

    const hex = auto.reply.id.replace(/-/g, '');
    expect(markupOf(auto.reply.id)).toEqual({
      inline_keyboard: [
        [
          { text: '👍', callback_data: `fb:u:${hex}` },
          { text: '👎', callback_data: `fb:d:${hex}` },
        ],
      ],
    });
    expect(Buffer.byteLength(`fb:u:${hex}`)).toBeLessThanOrEqual(64);
    expect(markupOf(approved.reply.id)).toBeNull();
    expect(markupOf(fixed.reply.id)).toBeNull();
  });

  it('keep the keyboard through the formatting fallback, once under the last part of a long reply', async () => {
    const strict = await startFakeBotServer({ token: TOKEN });
    try {
      strict.refuseParseMode('MarkdownV2');
      strict.refuseParseMode('HTML');
      const transport = createChanBTransport({
        api: createBotApi({ botToken: TOKEN, apiBaseUrl: strict.url }),
        ratePerMinute: 100,
      });
      const id = randomUUID();
      const long = `${'A paragraph of the reply. '.repeat(200)}\n\n${'Another paragraph. '.repeat(200)}`;
      expect(long.length).toBeGreaterThan(MAX_MESSAGE_CHARS);
      const outcome = await transport.send({
        id,
        conversationId: randomUUID(),
        departmentId: randomUUID(),
        channelUserId: '42',
        content: long,
        language: 'en',
        partsSent: 0,
        rateable: true,
      });
      expect(outcome.kind).toBe('sent');
      expect(strict.sent.length).toBeGreaterThan(1);
      expect(strict.sent.every((s) => s.parseMode === null)).toBe(true);
      expect(strict.sent.slice(0, -1).every((s) => s.replyMarkup === null)).toBe(true);
      expect(strict.sent.at(-1)?.replyMarkup).toMatchObject({
        inline_keyboard: [
          [{ callback_data: feedbackData('up', id) }, { callback_data: feedbackData('down', id) }],
        ],
      });
    } finally {
      await strict.close();
    }
  });

  it('store the employee’s press once per reply (a second press replaces it) and always answer it', async () => {
    const { chat, reply, platformId, conversationId } = await sentReply();
    const up = await press(bot.callbackUpdate(chat, platformId, feedbackData('up', reply.id)));
    expect(up.text).toBe(botText('feedback_thanks', 'en'));
    expect(await feedbackOf(reply.id)).toEqual([expect.objectContaining({ rating: 'up', channel: 'chanB' })]);

    await press(bot.callbackUpdate(chat, platformId, feedbackData('down', reply.id)));
    expect((await feedbackOf(reply.id)).map((r) => r.rating)).toEqual(['down']);

    // A press is never a message of the conversation and never starts a task or a chat reply.
    const stored = await ctx.container.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId));
    expect(stored).toHaveLength(2);
    const tasks = await ctx.container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.conversationId, conversationId));
    expect(tasks).toHaveLength(1);
    expect(bot.sent.filter((s) => s.chatId === String(chat))).toHaveLength(1);
  });

  it('answer and ignore a stranger’s press, a press naming another employee’s reply and stale data', async () => {
    const first = await sentReply();
    const second = await sentReply();
    const stranger = newChat();
    const other = await createUser(ctx.container, { departmentId: first.scene.departmentId });
    await ctx.container.pipeline.repositories.senders.insertIdentity(
      'chanB',
      String(stranger),
      other.user.id,
      ctx.container.db,
    );
    const presses = [
      // Someone else pressing under the first employee's reply.
      bot.callbackUpdate(first.chat, first.platformId, feedbackData('down', first.reply.id), stranger),
      // An unknown platform user.
      bot.callbackUpdate(first.chat, first.platformId, feedbackData('down', first.reply.id), newChat()),
      // The first employee naming the second employee's reply in crafted data.
      bot.callbackUpdate(first.chat, first.platformId, feedbackData('down', second.reply.id)),
      bot.callbackUpdate(first.chat, first.platformId, feedbackData('down', randomUUID())),
      bot.callbackUpdate(first.chat, first.platformId, 'fb:x:stale'),
    ];
    for (const update of presses) {
      const answer = await press(update);
      expect(answer.text).toBeNull();
    }
    expect(await feedbackOf(first.reply.id)).toEqual([]);
    expect(await feedbackOf(second.reply.id)).toEqual([]);
  });
});

describe('channel B reactions', () => {
  it('rate the reply they are on: 👍 up, 👎🏻 down replaces it, a removed reaction removes it; nothing is sent', async () => {
    const { chat, reply, platformId, conversationId } = await sentReply();
    bot.pushUpdate(bot.reactionUpdate(chat, platformId, ['👍']));
    await waitFor('the up rating', async () => (await feedbackOf(reply.id))[0]?.rating === 'up');
    bot.pushUpdate(bot.reactionUpdate(chat, platformId, ['🔥', '👎🏻']));
    await waitFor('the down rating', async () => (await feedbackOf(reply.id))[0]?.rating === 'down');
    expect(await feedbackOf(reply.id)).toHaveLength(1);
    bot.pushUpdate(bot.reactionUpdate(chat, platformId, []));
    await waitFor('the rating to be removed', async () => (await feedbackOf(reply.id)).length === 0);

    const stored = await ctx.container.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.direction, 'inbound')));
    expect(stored).toHaveLength(1);
    expect(bot.sent.filter((s) => s.chatId === String(chat))).toHaveLength(1);
  });

  it('ignore other emoji, a stranger’s reaction and a message that is not the employee’s assistant reply', async () => {
    const { scene, chat, reply, platformId } = await sentReply();
    const stranger = newChat();
    const other = await createUser(ctx.container, { departmentId: scene.departmentId });
    await ctx.container.pipeline.repositories.senders.insertIdentity(
      'chanB',
      String(stranger),
      other.user.id,
      ctx.container.db,
    );
    expect(await intake(bot.reactionUpdate(chat, platformId, ['😂']))).toBe('feedback');
    expect(await intake(bot.reactionUpdate(stranger, platformId, ['👍'], chat))).toBe('feedback');
    // The same message id in another chat is another message.
    expect(await intake(bot.reactionUpdate(stranger, platformId, ['👍']))).toBe('feedback');
    expect(await intake(bot.reactionUpdate(chat, platformId + 100_000, ['👍']))).toBe('feedback');
    expect(await feedbackOf(reply.id)).toEqual([]);
    expect(await intake(bot.reactionUpdate(chat, platformId, ['👎']))).toBe('feedback');
    expect((await feedbackOf(reply.id)).map((r) => r.rating)).toEqual(['down']);
  });
});
