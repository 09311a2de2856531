import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_APP_SECRET } from '../../../test/chanA-app.js';
import { chanBTestEnv } from '../../../test/chanB-app.js';
import { createUser } from '../../../test/factories.js';
import { startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import {
  postWebhook,
  TEST_PHONE_NUMBER_ID,
  textMessage,
  wamid,
  webhookPayload,
} from '../../../test/fakes/chanA-webhooks.js';
import { startFakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { messageJobId } from '../../channels/chan-a/webhook.service.js';
import { channelIdentities, conversations, messages, users } from '../../core/db/schema/index.js';
import { linkingText } from './linking-texts.js';

const TOKEN = '7000003:unknown-sender-token';

/** The service with both channels against fresh fakes, and CHANNEL_UNKNOWN_SENDER set. */
async function startApp(policy: 'instruct' | 'reject') {
  const bot = await startFakeBotServer({ token: TOKEN });
  const graph = await startFakeGraphServer();
  const ctx = await createPipelineTestApp(
    {
      CHANNEL_UNKNOWN_SENDER: policy,
      ...chanBTestEnv(bot.url, TOKEN),
      CHANA_APP_SECRET: TEST_APP_SECRET,
      CHANA_PHONE_NUMBER_ID: TEST_PHONE_NUMBER_ID,
      CHANA_ACCESS_TOKEN: 'test-access-token',
      CHANA_PHONE_NUMBER: '15550783881',
      CHANA_API_BASE_URL: `${graph.url}/v21.0`,
    },
    { workers: true },
  );
  return {
    bot,
    graph,
    ctx,
    async close() {
      await ctx.close();
      await graph.close();
      await bot.close();
    },
  };
}
type App = Awaited<ReturnType<typeof startApp>>;

let nextUser = 920_000_000 + Math.floor(Math.random() * 1_000_000);
const newChat = () => {
  nextUser += 1;
  return nextUser;
};
const newPhone = () => `4479${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

/** Nothing of the sender was written: no user, identity or conversation on either channel. */
async function nothingStoredFor(app: App, channel: 'chanA' | 'chanB', channelUserId: string) {
  const { db } = app.ctx.container;
  expect(
    await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.channel, channel), eq(conversations.channelUserId, channelUserId))),
  ).toEqual([]);
  expect(
    await db
      .select()
      .from(channelIdentities)
      .where(and(eq(channelIdentities.channel, channel), eq(channelIdentities.channelUserId, channelUserId))),
  ).toEqual([]);
  expect(
    await db
      .select()
      .from(users)
      .where(like(users.email, `%${channelUserId}@channel.invalid`)),
  ).toEqual([]);
}

const chanBJobDone = (app: App, updateId: number) =>
  waitFor('the update’s job to complete', async () => {
    const job = await app.ctx.container.queue.getJob('chanB-inbound', `upd-${updateId}`);
    return job?.state === 'completed';
  });

const chanAJobDone = (app: App, messageId: string) =>
  waitFor('the message’s job to complete', async () => {
    const job = await app.ctx.container.queue.getJob('chanA-inbound', messageJobId(messageId));
    return job?.state === 'completed';
  });

const chanASentTo = (app: App, phone: string) =>
  app.graph
    .messageCalls()
    .filter((call) => call.body.to === phone)
    .map((call) => (call.body.text as { body: string }).body);

describe('CHANNEL_UNKNOWN_SENDER=instruct', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp('instruct');
  });
  afterAll(() => app?.close());

  it('answers an unlinked channel B sender how to link, in the app’s language or else the text’s, and creates nothing', async () => {
    const ukrainian = newChat();
    app.bot.pushUpdate(app.bot.textUpdate(ukrainian, 'Hello', { languageCode: 'uk' }));
    const russian = newChat();
    app.bot.pushUpdate(app.bot.textUpdate(russian, 'Здравствуйте, сколько дней отпуска?'));
    const toUk = await waitFor('the instructions', () =>
      app.bot.sent.find((s) => s.chatId === String(ukrainian)),
    );
    const toRu = await waitFor('the instructions', () =>
      app.bot.sent.find((s) => s.chatId === String(russian)),
    );
    expect(toUk.plain).toBe(linkingText('instructions', 'uk'));
    expect(toRu.plain).toBe(linkingText('instructions', 'ru'));
    await nothingStoredFor(app, 'chanB', String(ukrainian));
    await nothingStoredFor(app, 'chanB', String(russian));
  });

  it('answers an unlinked channel A sender in the text’s language and creates nothing; a code alone links them', async () => {
    const phone = newPhone();
    const id = wamid();
    await postWebhook(
      app.ctx.app,
      webhookPayload({ messages: [textMessage(phone, 'Вітаю, скільки днів відпустки?', id)] }),
      { appSecret: TEST_APP_SECRET },
    );
    const [sent] = await waitFor(
      'the instructions',
      () => chanASentTo(app, phone).length > 0 && chanASentTo(app, phone),
    );
    expect(sent).toBe(linkingText('instructions', 'uk'));
    await nothingStoredFor(app, 'chanA', phone);

    const scene = await createPipelineScene(app.ctx.container);
    const code = await app.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/channel-link-codes',
      headers: scene.employee.headers,
      payload: { channel: 'chanA' },
    });
    await postWebhook(
      app.ctx.app,
      webhookPayload({ messages: [textMessage(phone, code.json().code.toLowerCase())] }),
      {
        appSecret: TEST_APP_SECRET,
      },
    );
    const confirmed = await waitFor('the confirmation', () => chanASentTo(app, phone)[1]);
    expect(confirmed).toBe(linkingText('linked', 'en'));

    // Linked now, the sender reaches the employee's department.
    const question = wamid();
    await postWebhook(
      app.ctx.app,
      webhookPayload({ messages: [textMessage(phone, VACATION_QUESTION, question)] }),
      {
        appSecret: TEST_APP_SECRET,
      },
    );
    const inbound = await waitFor('the question to be stored', async () => {
      const [row] = await app.ctx.container.db
        .select()
        .from(messages)
        .where(and(eq(messages.channel, 'chanA'), eq(messages.channelMessageId, question)));
      return row;
    });
    const [conversation] = await app.ctx.container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, inbound.conversationId));
    expect(conversation).toMatchObject({ userId: scene.employee.user.id, departmentId: scene.departmentId });
  });

  it('lets a channel A sender whose number is a user’s phone through, recording the identity at that first match', async () => {
    const scene = await createPipelineScene(app.ctx.container);
    const id = wamid();
    await postWebhook(
      app.ctx.app,
      webhookPayload({ messages: [textMessage(scene.phone, VACATION_QUESTION, id)] }),
      {
        appSecret: TEST_APP_SECRET,
      },
    );
    await waitFor('the message to be stored', async () => {
      const [row] = await app.ctx.container.db
        .select()
        .from(messages)
        .where(and(eq(messages.channel, 'chanA'), eq(messages.channelMessageId, id)));
      return row;
    });
    const [identity] = await app.ctx.container.db
      .select()
      .from(channelIdentities)
      .where(and(eq(channelIdentities.channel, 'chanA'), eq(channelIdentities.channelUserId, scene.phone)));
    expect(identity?.userId).toBe(scene.employee.user.id);
  });
});

describe('CHANNEL_UNKNOWN_SENDER=reject', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp('reject');
  });
  afterAll(() => app?.close());

  it('stores nothing and answers nothing for unlinked senders on either channel, while linked senders go through', async () => {
    const chat = newChat();
    const updateId = app.bot.pushUpdate(app.bot.textUpdate(chat, 'Hello', { languageCode: 'en' }));
    const phone = newPhone();
    const id = wamid();
    await postWebhook(app.ctx.app, webhookPayload({ messages: [textMessage(phone, 'Hello', id)] }), {
      appSecret: TEST_APP_SECRET,
    });
    await chanBJobDone(app, updateId);
    await chanAJobDone(app, id);
    expect(app.bot.sent.filter((s) => s.chatId === String(chat))).toEqual([]);
    expect(chanASentTo(app, phone)).toEqual([]);
    await nothingStoredFor(app, 'chanB', String(chat));
    await nothingStoredFor(app, 'chanA', phone);

    const employee = await createUser(app.ctx.container);
    const admin = await createUser(app.ctx.container, { role: 'admin' });
    await app.ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${employee.user.id}/channel-identities/chanB`,
      headers: admin.headers,
      payload: { channelUserId: String(chat) },
    });
    const update = app.bot.textUpdate(chat, 'Hello again', { languageCode: 'en' });
    app.bot.pushUpdate(update);
    const message = update.message as { message_id: number };
    await waitFor('the linked sender’s message to be stored', async () => {
      const [row] = await app.ctx.container.db
        .select()
        .from(messages)
        .where(
          and(eq(messages.channel, 'chanB'), eq(messages.channelMessageId, `${chat}-${message.message_id}`)),
        );
      return row;
    });
  });
});
