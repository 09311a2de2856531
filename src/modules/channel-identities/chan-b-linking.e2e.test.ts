import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChanBTestApp, chatIds, startChanBTestApp } from '../../../test/chanB-app.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import type { FakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import {
  createPipelineScene,
  type PipelineTestContext,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import {
  agentTasks,
  channelIdentities,
  channelLinkCodes,
  conversations,
  messages,
  users,
} from '../../core/db/schema/index.js';
import { linkingText } from './linking-texts.js';

const TOKEN = '7000002:linking-test-token';

let app: ChanBTestApp;
let bot: FakeBotServer;
let ctx: PipelineTestContext;

beforeAll(async () => {
  app = await startChanBTestApp({ token: TOKEN, username: 'linking_test_bot' });
  ({ bot, ctx } = app);
});
afterAll(() => app?.close());

const newChat = chatIds(910_000_000);

const api = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, caller: TestUser, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

const channelMessageIdOf = (update: Record<string, unknown>) => {
  const message = update.message as { chat: { id: number }; message_id: number };
  return `${message.chat.id}-${message.message_id}`;
};

const inboundOf = async (update: Record<string, unknown>) => {
  const [row] = await ctx.container.db
    .select()
    .from(messages)
    .where(and(eq(messages.channel, 'chanB'), eq(messages.channelMessageId, channelMessageIdOf(update))));
  return row ?? null;
};

/** Sends a text from `chat` and waits until it is stored. */
async function sendStored(chat: number, text: string) {
  const update = bot.textUpdate(chat, text, { languageCode: 'en' });
  bot.pushUpdate(update);
  return waitFor('the message to be stored', () => inboundOf(update));
}

/** Sends `text` from `chat` and answers the bot's next message to it (its `plain` text). */
async function sendAndReply(chat: number, text: string, languageCode?: string) {
  const before = bot.sent.filter((s) => s.chatId === String(chat)).length;
  const update = bot.textUpdate(chat, text, languageCode ? { languageCode } : {});
  bot.pushUpdate(update);
  const reply = await waitFor(
    'the bot to answer',
    () => bot.sent.filter((s) => s.chatId === String(chat))[before],
  );
  return { reply: reply.plain, update };
}

const identityOf = async (chat: number) => {
  const [row] = await ctx.container.db
    .select()
    .from(channelIdentities)
    .where(and(eq(channelIdentities.channel, 'chanB'), eq(channelIdentities.channelUserId, String(chat))));
  return row ?? null;
};

const codeFor = async (employee: TestUser) => {
  const res = await api('POST', '/me/channel-link-codes', employee, { channel: 'chanB' });
  expect(res.statusCode).toBe(201);
  return res.json() as { code: string; expiresAt: string; deepLink?: string };
};

describe('linking channel B senders', () => {
  it('an identity an administrator links routes that sender’s next message to the department’s namespace', async () => {
    const scene = await createPipelineScene(ctx.container);
    const admin = await createUser(ctx.container, { role: 'admin' });
    const chat = newChat();
    const put = await api('PUT', `/users/${scene.employee.user.id}/channel-identities/chanB`, admin, {
      channelUserId: String(chat),
    });
    expect(put.statusCode).toBe(200);

    const inbound = await sendStored(chat, VACATION_QUESTION);
    const [conversation] = await ctx.container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, inbound.conversationId));
    expect(conversation).toMatchObject({ userId: scene.employee.user.id, departmentId: scene.departmentId });
    const [task] = await ctx.container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.messageId, inbound.id));
    expect(task).toMatchObject({ namespaceId: scene.namespaceId, departmentId: scene.departmentId });
  });

  it('linking an identity a placeholder holds merges the placeholder, keeping its conversation; a real holder is 409', async () => {
    const scene = await createPipelineScene(ctx.container);
    const admin = await createUser(ctx.container, { role: 'admin' });
    const chat = newChat();
    const earlier = await sendStored(chat, 'Hello, who answers here?');
    const placeholder = (await identityOf(chat))!.userId;
    expect(placeholder).not.toBe(scene.employee.user.id);

    const put = await api('PUT', `/users/${scene.employee.user.id}/channel-identities/chanB`, admin, {
      channelUserId: String(chat),
    });
    expect(put.statusCode).toBe(200);
    const { db } = ctx.container;
    expect(await db.select().from(users).where(eq(users.id, placeholder))).toEqual([]);
    const [kept] = await db.select().from(conversations).where(eq(conversations.id, earlier.conversationId));
    expect(kept?.userId).toBe(scene.employee.user.id);
    expect((await db.select().from(messages).where(eq(messages.id, earlier.id))).length).toBe(1);

    // The next message is routed by the employee's department.
    const next = await sendStored(chat, VACATION_QUESTION);
    const [task] = await db.select().from(agentTasks).where(eq(agentTasks.messageId, next.id));
    expect(task?.namespaceId).toBe(scene.namespaceId);

    const other = await createUser(ctx.container);
    const conflict = await api('PUT', `/users/${other.user.id}/channel-identities/chanB`, admin, {
      channelUserId: String(chat),
    });
    expect(conflict.statusCode).toBe(409);
    expect((await identityOf(chat))?.userId).toBe(scene.employee.user.id);
  });

  it('an employee’s code sent as /start <code> links the sender, merges its placeholder and confirms in the user’s language', async () => {
    const scene = await createPipelineScene(ctx.container);
    expect((await api('PATCH', '/me', scene.employee, { language: 'uk' })).statusCode).toBe(200);
    const chat = newChat();
    const earlier = await sendStored(chat, 'Hello?');

    const code = await codeFor(scene.employee);
    expect(code.deepLink).toBe(`https://t.me/linking_test_bot?start=${code.code}`);
    const { reply, update } = await sendAndReply(chat, `/start ${code.code}`, 'en');
    expect(reply).toBe(linkingText('linked', 'uk'));
    expect((await identityOf(chat))?.userId).toBe(scene.employee.user.id);
    // The link message is not stored and reaches no assistant; the placeholder's conversation is kept.
    expect(await inboundOf(update)).toBeNull();
    const [kept] = await ctx.container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, earlier.conversationId));
    expect(kept?.userId).toBe(scene.employee.user.id);

    // Replayed after use, the code links nothing.
    const another = newChat();
    expect((await sendAndReply(another, `/start ${code.code}`, 'en')).reply).toBe(
      linkingText('invalid_code', 'en'),
    );
    expect(await identityOf(another)).toBeNull();
  });

  it('sets the user’s language from the linking message when the user has none', async () => {
    const employee = await createUser(ctx.container);
    const { code } = await codeFor(employee);
    const chat = newChat();
    expect((await sendAndReply(chat, `/start ${code}`, 'ru')).reply).toBe(linkingText('linked', 'ru'));
    const [row] = await ctx.container.db.select().from(users).where(eq(users.id, employee.user.id));
    expect(row?.language).toBe('ru');
  });

  it('an expired code and a code of another user link nothing', async () => {
    const first = await createUser(ctx.container);
    const second = await createUser(ctx.container);
    const { code } = await codeFor(first);
    await ctx.container.db
      .update(channelLinkCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(channelLinkCodes.userId, first.user.id));
    const chat = newChat();
    expect((await sendAndReply(chat, `/start ${code}`, 'en')).reply).toBe(linkingText('invalid_code', 'en'));
    expect(await identityOf(chat)).toBeNull();

    // A sender linked to one employee who sends another employee's code stays where it was.
    const linked = newChat();
    const own = await codeFor(first);
    expect((await sendAndReply(linked, `/start ${own.code}`, 'en')).reply).toBe(linkingText('linked', 'en'));
    const foreign = await codeFor(second);
    expect((await sendAndReply(linked, `/start ${foreign.code}`, 'en')).reply).toBe(
      linkingText('held', 'en'),
    );
    expect((await identityOf(linked))?.userId).toBe(first.user.id);
    const mine = await api('GET', '/me/channel-identities', second);
    expect(mine.json().items).toEqual([]);
  });

  it('refuses a sender’s attempts after five wrong codes, without checking the code', async () => {
    const employee = await createUser(ctx.container);
    const chat = newChat();
    for (let i = 0; i < 5; i++) {
      expect((await sendAndReply(chat, `/start ZZZZ${1000 + i}`, 'en')).reply).toBe(
        linkingText('invalid_code', 'en'),
      );
    }
    const { code } = await codeFor(employee);
    expect((await sendAndReply(chat, `/start ${code}`, 'en')).reply).toBe(linkingText('throttled', 'en'));
    expect(await identityOf(chat)).toBeNull();
  });
});
