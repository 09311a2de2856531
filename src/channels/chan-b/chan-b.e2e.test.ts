import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChanBTestApp, chatIds, linkChanBUser, startChanBTestApp } from '../../../test/chanB-app.js';
import { createUser } from '../../../test/factories.js';
import type { FakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import {
  createPipelineScene,
  type PipelineScene,
  type PipelineTestContext,
  VACATION_FACT,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { agentTasks, approvals, conversations, messages } from '../../core/db/schema/index.js';
import { CHANB_KEYS } from './poller-state.js';
import { botText } from './texts.js';

const TOKEN = '7000001:e2e-test-token';
const RATE = 2;

let app: ChanBTestApp;
let bot: FakeBotServer;
let ctx: PipelineTestContext;

beforeAll(async () => {
  app = await startChanBTestApp({ token: TOKEN, ratePerMinute: RATE });
  ({ bot, ctx } = app);
});
afterAll(() => app?.close());

const newChat = chatIds(900_000_000);

/** Links the platform user to the scene's employee, as an identity stored earlier would. */
async function linkIdentity(scene: PipelineScene, userId: number) {
  await linkChanBUser(ctx, userId, scene.employee.user.id);
}

const inboundOf = async (channelMessageId: string) => {
  const [row] = await ctx.container.db
    .select()
    .from(messages)
    .where(and(eq(messages.channel, 'chanB'), eq(messages.channelMessageId, channelMessageId)));
  return row ?? null;
};

const channelMessageIdOf = (update: Record<string, unknown>) => {
  const message = update.message as { chat: { id: number }; message_id: number };
  return `${message.chat.id}-${message.message_id}`;
};

/** Queues an outbound reply in the sender's chanB conversation through the pipeline's delivery. */
async function queueReply(scene: PipelineScene, chat: number, content: string) {
  const { db, pipeline } = ctx.container;
  const [created] = await db
    .insert(conversations)
    .values({
      channel: 'chanB',
      channelUserId: String(chat),
      userId: scene.employee.user.id,
      departmentId: scene.departmentId,
      namespaceId: scene.namespaceId,
    })
    .onConflictDoNothing()
    .returning();
  const conversation = created ?? (await pipeline.repositories.conversations.findOpen('chanB', String(chat)));
  const { message, effects } = await db.transaction((tx) =>
    pipeline.routing.deliverReply(tx, {
      conversation: conversation!,
      taskId: null,
      approvalId: null,
      content,
    }),
  );
  await pipeline.routing.publish(effects);
  return message;
}

const messageRow = async (id: string) =>
  (await ctx.container.db.select().from(messages).where(eq(messages.id, id)))[0]!;
const sentTo = (chat: number) => bot.sent.filter((s) => s.chatId === String(chat));

describe('channel B end to end', () => {
  it('turns a polled update into a task, stored once with its chat id, and moves the offset past it', async () => {
    const scene = await createPipelineScene(ctx.container);
    const chat = newChat();
    await linkIdentity(scene, chat);
    const update = bot.textUpdate(chat, VACATION_QUESTION, { languageCode: 'en' });
    const updateId = bot.pushUpdate(update);

    const inbound = await waitFor('the update to be stored', () => inboundOf(channelMessageIdOf(update)));
    expect(inbound.content).toBe(VACATION_QUESTION);
    expect(inbound.metadata).toMatchObject({ chatId: String(chat), updateId });
    const [task] = await ctx.container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.messageId, inbound.id));
    expect(task).toMatchObject({ namespaceId: scene.namespaceId, departmentId: scene.departmentId });
    const [conversation] = await ctx.container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, inbound.conversationId));
    expect(conversation).toMatchObject({
      channel: 'chanB',
      channelUserId: String(chat),
      userId: scene.employee.user.id,
    });
    await waitFor('the offset to move past the update', async () => {
      const offset = Number(await ctx.container.kv.get(CHANB_KEYS.offset));
      return offset > updateId;
    });
    // The next long poll confirms the update to the platform, which then drops it.
    await waitFor('the platform to drop the update', () => !bot.pendingUpdates().includes(updateId));
    expect(await ctx.container.queue.getJob('chanB-inbound', `upd-${updateId}`)).not.toBeNull();
  });

  it('waits for approval, and approving it sends the reply to the chat as MarkdownV2 the strict platform accepts', async () => {
    const scene = await createPipelineScene(ctx.container);
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: scene.departmentId });
    const chat = newChat();
    await linkIdentity(scene, chat);
    const update = bot.textUpdate(chat, VACATION_QUESTION);
    bot.pushUpdate(update);

    const approval = await waitFor('a pending approval', async () => {
      const inbound = await inboundOf(channelMessageIdOf(update));
      if (!inbound) return null;
      const [row] = await ctx.container.db
        .select()
        .from(approvals)
        .where(eq(approvals.messageId, inbound.id));
      return row ?? null;
    });
    expect(approval.status).toBe('pending');
    expect(sentTo(chat)).toEqual([]);

    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const [sent] = await waitFor(
      'the reply to reach the chat',
      () => sentTo(chat).length > 0 && sentTo(chat),
    );
    expect(sent?.parseMode).toBe('MarkdownV2');
    expect(sent?.plain).toContain(VACATION_FACT);
    const reply = await waitFor('the reply to be marked sent', async () => {
      const [row] = await ctx.container.db
        .select()
        .from(messages)
        .where(eq(messages.approvalId, approval.id));
      return row?.status === 'sent' ? row : null;
    });
    expect(reply.channelMessageId).toBe(`${chat}-${sent?.messageId}`);
  });

  it('greets /start and answers a photo that only text is read, each in the sender’s language', async () => {
    const ukrainian = newChat();
    const russian = newChat();
    const start = bot.textUpdate(ukrainian, '/start', { languageCode: 'uk' });
    bot.pushUpdate(start);
    bot.pushUpdate({
      message: {
        message_id: 77,
        date: 1_700_000_000,
        chat: { id: russian, type: 'private' },
        from: { id: russian, is_bot: false, first_name: 'Иван', language_code: 'ru' },
        photo: [{ file_id: 'f', file_unique_id: 'u', width: 90, height: 90 }],
      },
    });

    const greeting = await waitFor('the greeting', () => sentTo(ukrainian)[0]);
    expect(greeting.plain).toBe(botText('greeting', 'uk'));
    const textOnly = await waitFor('the text-only answer', () => sentTo(russian)[0]);
    expect(textOnly.plain).toBe(botText('text_only', 'ru'));
    const stored = await inboundOf(channelMessageIdOf(start));
    expect(stored?.metadata).toMatchObject({ botReply: 'greeting', chatId: String(ukrainian) });
    // No task: the bot answered itself.
    expect(
      await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.messageId, stored!.id)),
    ).toEqual([]);
  });

  it('delivers a reply full of reserved characters through the strict MarkdownV2 check', async () => {
    const scene = await createPipelineScene(ctx.container);
    const chat = newChat();
    const content =
      'Leave (2025): **24 days** + _paid_ sick-leave = ~~23~~ more! See [policy](https://example.com/a_(b)) #hr {x} | y > z. `a_b`';
    const message = await queueReply(scene, chat, content);
    await waitFor('the reply to be sent', async () => (await messageRow(message.id)).status === 'sent');
    const [sent] = sentTo(chat);
    expect(sent?.parseMode).toBe('MarkdownV2');
    expect(sent?.plain).toBe(
      'Leave (2025): 24 days + paid sick-leave = 23 more! See policy #hr {x} | y > z. a_b',
    );
  });

  it('waits out retry_after and then sends', async () => {
    const scene = await createPipelineScene(ctx.container);
    const chat = newChat();
    bot.replyNext('sendMessage', bot.error(429, 'Too Many Requests: retry after 1', { retry_after: 1 }));
    const message = await queueReply(scene, chat, 'Your request was noted.');
    const retried = await waitFor('the retry job', () =>
      ctx.container.queue.getJob('chanB-outbound', `outbound-${message.id}-r1`),
    );
    expect(retried.data).toMatchObject({ messageId: message.id, retries: 1 });
    await waitFor('the reply to be sent', async () => (await messageRow(message.id)).status === 'sent');
    const calls = bot.callsOf('sendMessage').filter((c) => String(c.body.chat_id) === String(chat));
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect(sentTo(chat).map((s) => s.plain)).toEqual(['Your request was noted.']);
  });

  it('sends a reply over 4,096 characters as ordered parts', async () => {
    const scene = await createPipelineScene(ctx.container);
    const chat = newChat();
    const sections = Array.from(
      { length: 10 },
      (_, i) => `Section ${i + 1}. ${'Policy text (v2) applies here. '.repeat(30)}`,
    );
    const message = await queueReply(scene, chat, sections.join('\n\n'));
    const row = await waitFor('the reply to be sent', async () => {
      const current = await messageRow(message.id);
      return current.status === 'sent' ? current : null;
    });
    const parts = sentTo(chat);
    expect(parts.length).toBeGreaterThan(1);
    expect(row.metadata).toMatchObject({ partsSent: parts.length });
    const order = parts.flatMap((p) =>
      [...p.plain.matchAll(/Section (\d+)\./g)].map((hit) => Number(hit[1])),
    );
    expect(order).toEqual(sections.map((_, i) => i + 1));
  });

  it('holds a sender to CHANB_RATE_LIMIT_PER_MIN: the next reply waits as a delayed job', async () => {
    const scene = await createPipelineScene(ctx.container);
    const chat = newChat();
    const queued: Array<{ id: string; content: string }> = [];
    for (let i = 0; i <= RATE; i++) queued.push(await queueReply(scene, chat, `Reply number ${i + 1}.`));
    await waitFor('the replies within the limit', () => sentTo(chat).length === RATE);
    const held = queued.find((m) => !sentTo(chat).some((s) => s.plain === m.content))!;
    const delayed = await waitFor('the held reply’s delayed job', () =>
      ctx.container.queue.getJob('chanB-outbound', `outbound-${held.id}-d1`),
    );
    expect(delayed.state).toBe('delayed');
    expect((await messageRow(held.id)).status).toBe('queued');
    await waitFor('the others to be marked sent', async () => {
      const statuses = await Promise.all(
        queued.filter((m) => m !== held).map(async (m) => (await messageRow(m.id)).status),
      );
      return statuses.every((status) => status === 'sent');
    });
  });
});
