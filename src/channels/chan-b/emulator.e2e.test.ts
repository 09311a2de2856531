import { createServer } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chanBTestEnv, chatIds, linkChanBUser } from '../../../test/chanB-app.js';
import { createUser } from '../../../test/factories.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  VACATION_FACT,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { approvals, messages } from '../../core/db/schema/index.js';
import { updateJobId } from './poller.js';
import { botText } from './texts.js';
import { feedbackData } from './updates.js';

/**
 * Channel B against a Bot API server this team did not write: `telegram-test-api`, a
 * third-party emulator of the Bot API (getMe, getUpdates, sendMessage, answerCallbackQuery,
 * message edits). What it cannot show (it ignores `offset` and `timeout`, delivers text
 * messages and button presses only, never answers 409 or 429) is covered by the own fake;
 * docs/channels.md lists which test covers what.
 */

const TOKEN = '7000077:emulator-token';
let emulator: TelegramServer;
let ctx: PipelineTestContext;
const nextChat = chatIds(700_000_000);

/** A port nobody listens on: the emulator takes a fixed one. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1', storeTimeout: 600 });
  await emulator.start();
  ctx = await createPipelineTestApp(chanBTestEnv(emulator.config.apiURL, TOKEN), { workers: true });
});
afterAll(async () => {
  await ctx?.close();
  await emulator?.stop();
});

/** What the bot sent to `chat`, as the emulator stored it. */
const botMessagesTo = (chat: number) =>
  emulator.storage.botMessages.filter((m) => String(m.message.chat_id) === String(chat));

const stored = async (chat: number) =>
  ctx.container.db
    .select()
    .from(messages)
    .where(and(eq(messages.channel, 'chanB'), eq(messages.direction, 'inbound')))
    .then((rows) => rows.filter((r) => r.channelMessageId?.startsWith(`${chat}-`)));

describe('channel B against the telegram-test-api emulator', () => {
  it('greets /start through the elected poller and sendMessage', async () => {
    const chat = nextChat();
    const client = emulator.getClient(TOKEN, { chatId: chat, userId: chat, firstName: 'Olena' });
    await client.sendCommand(client.makeCommand('/start'));
    await waitFor('the greeting at the emulator', () => botMessagesTo(chat).length > 0);
    const [greeting] = botMessagesTo(chat);
    expect(greeting?.message.text).toBeTruthy();
    const [row] = await stored(chat);
    expect(row).toMatchObject({ content: '/start' });
    expect(row?.metadata).toMatchObject({ botReply: 'greeting' });
    // One poller for the process: the emulator answered every getUpdates to one token.
    expect(await ctx.container.kv.get('chanB:poller-lock')).toBeTruthy();
  });

  it('answers a private question through the pipeline and the approval, in the parse mode it sends', async () => {
    const scene = await createPipelineScene(ctx.container);
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: scene.departmentId });
    const chat = nextChat();
    await linkChanBUser(ctx, chat, scene.employee.user.id);
    const client = emulator.getClient(TOKEN, { chatId: chat, userId: chat, firstName: 'Olena' });
    await client.sendMessage(client.makeMessage(VACATION_QUESTION));

    const approval = await waitFor('a pending approval', async () => {
      const [inbound] = await stored(chat);
      if (!inbound) return null;
      const [row] = await ctx.container.db
        .select()
        .from(approvals)
        .where(eq(approvals.messageId, inbound.id));
      return row;
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const reply = await waitFor('the reply at the emulator', () => botMessagesTo(chat)[0]);
    // The emulator accepts any parse mode: the reply arrives as the service formats it.
    expect(reply.message.parse_mode).toBe('MarkdownV2');
    expect(String(reply.message.text).replace(/\\/g, '')).toContain(VACATION_FACT);
    const sent = await waitFor('the reply marked sent', async () => {
      const [row] = await ctx.container.db
        .select()
        .from(messages)
        .where(eq(messages.approvalId, approval.id));
      return row?.status === 'sent' ? row : null;
    });
    expect(sent.channelMessageId).toBe(`${chat}-${reply.messageId}`);
    // The client sees it in its chat, as a user's app would.
    const updates = await client.getUpdates();
    expect(updates.result.some((u) => String(u.message.text).includes('twenty'))).toBe(true);
  });

  it('answers a button press with answerCallbackQuery and stores no message', async () => {
    const chat = nextChat();
    const client = emulator.getClient(TOKEN, { chatId: chat, userId: chat, firstName: 'Olena' });
    const before = emulator.storage.userMessages.length;
    await client.sendCallback(
      client.makeCallbackQuery(feedbackData('up', '0f0e0d0c-0b0a-0908-0706-050403020100')),
    );
    const update = emulator.storage.userMessages[before]!;
    await waitFor('the press handled', async () => {
      const job = await ctx.container.queue.getJob('chanB-inbound', updateJobId(update.updateId));
      return job?.state === 'completed';
    });
    expect(await stored(chat)).toEqual([]);
    expect(botMessagesTo(chat)).toEqual([]);
  });

  it('takes each update once although the emulator ignores offset', async () => {
    const chat = nextChat();
    const client = emulator.getClient(TOKEN, { chatId: chat, userId: chat, firstName: 'Olena' });
    await client.sendCommand(client.makeCommand('/start'));
    await waitFor('the greeting', () => botMessagesTo(chat).length > 0);
    await client.sendMessage(client.makeMessage('/start'));
    await waitFor('the second greeting', () => botMessagesTo(chat).length > 1);
    // Two updates, two greetings: none repeated, none lost.
    expect(await stored(chat)).toHaveLength(2);
    // Sent as MarkdownV2: the reserved characters are escaped.
    expect(botMessagesTo(chat).map((m) => String(m.message.text).replace(/\\/g, ''))).toEqual([
      botText('greeting', 'en'),
      botText('greeting', 'en'),
    ]);
  });
});
