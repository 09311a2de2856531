import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testRedis } from '../../../test/database.js';
import { createUser } from '../../../test/factories.js';
import { type FakeBotServer, startFakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  startSecondWorker,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { type Container, createContainer } from '../../container.js';
import { loadConfig } from '../../core/config/config.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { agentTasks, messages } from '../../core/db/schema/index.js';
import { startWorkers } from '../../workers/index.js';
import { CHANB_KEYS } from './poller-state.js';

const TOKEN = '7000002:poller-test-token';
/** Long enough that a busy test process (embedded PGlite shares its thread) never misses a renewal. */
const LOCK_TTL_MS = 10_000;

/** Fast timings: a one-second long poll, frequent tries of the lock. */
const chanBEnv = (bot: FakeBotServer): Record<string, string> => ({
  CHANB_BOT_TOKEN: TOKEN,
  CHANB_API_BASE_URL: bot.url,
  CHANB_POLL_TIMEOUT_SEC: '1',
  CHANB_LOCK_TTL_MS: String(LOCK_TTL_MS),
  CHANB_LOCK_RETRY_MS: '100',
});

let nextUser = 800_000_000 + Math.floor(Math.random() * 1_000_000);
const newChat = () => (nextUser += 1);

const storedIds = async (container: Container, ids: string[]) =>
  (
    await container.db
      .select({ id: messages.id, channelMessageId: messages.channelMessageId })
      .from(messages)
      .where(and(eq(messages.channel, 'chanB'), inArray(messages.channelMessageId, ids)))
  ).map((row) => row.channelMessageId);

const idOf = (update: Record<string, unknown>) => {
  const message = update.message as { chat: { id: number }; message_id: number };
  return `${message.chat.id}-${message.message_id}`;
};

describe('the channel B poller', () => {
  let bot: FakeBotServer;
  let ctx: PipelineTestContext;

  beforeAll(async () => {
    bot = await startFakeBotServer({ token: TOKEN, username: 'poller_test_bot' });
    // A webhook left over from another deployment: the poller deletes it before polling.
    bot.setWebhookActive(true);
    ctx = await createPipelineTestApp(chanBEnv(bot), { workers: true });
  });
  afterAll(async () => {
    await ctx?.close();
    await bot?.close();
  });

  const status = () => ctx.container.chanB.status.get();

  it('deletes the webhook before the first getUpdates and long-polls only messages from the stored offset', async () => {
    await waitFor('a long poll', () => bot.callsOf('getUpdates').length > 0);
    const methods = bot.calls.map((call) => call.method);
    expect(methods.indexOf('deleteWebhook')).toBeGreaterThanOrEqual(0);
    expect(methods.indexOf('deleteWebhook')).toBeLessThan(methods.indexOf('getUpdates'));
    const [first] = bot.callsOf('getUpdates');
    expect(first?.body).toMatchObject({
      timeout: 1,
      allowed_updates: ['message', 'callback_query', 'message_reaction'],
    });
    expect(first?.status).not.toBe(409);
    const current = await waitFor('the status to say it polls', async () => {
      const now = await status();
      return now.polling === 'polling' ? now : null;
    });
    expect(current).toMatchObject({
      configured: true,
      botUsername: 'poller_test_bot',
      lockHolder: ctx.container.chanB.poller?.workerId,
      lastError: null,
    });
    const admin = await createUser(ctx.container, { role: 'admin' });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/chanB/status', headers: admin.headers });
    expect(res.json()).toMatchObject({
      configured: true,
      polling: 'polling',
      botUsername: 'poller_test_bot',
    });
    // Never the token, nor its secret half.
    expect(res.body).not.toContain(TOKEN.split(':')[1]);
  });

  it('records a 409 Conflict as the last error, backs off, and polls again', async () => {
    const conflict =
      'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';
    bot.replyNext('getUpdates', bot.error(409, conflict));
    const failed = await waitFor('the 409 in the status', async () => {
      const now = await status();
      return now.lastError?.message.includes('409') ? now : null;
    });
    expect(failed.lastError?.message).toBe(`409: ${conflict}`);
    expect(Date.parse(failed.lastError?.at ?? '')).not.toBeNaN();

    // Still polling afterwards: a new update is taken in.
    const scene = await createPipelineScene(ctx.container);
    const chat = newChat();
    await ctx.container.pipeline.repositories.senders.insertIdentity(
      'chanB',
      String(chat),
      scene.employee.user.id,
      ctx.container.db,
    );
    const update = bot.textUpdate(chat, 'Is the office open on Friday?');
    const updateId = bot.pushUpdate(update);
    await waitFor(
      'the update after the conflict',
      async () => (await storedIds(ctx.container, [idOf(update)])).length === 1,
    );
    expect((await status()).lastUpdateId).toBe(updateId);
  });

  it('stays backing_off with the error while a webhook blocks polling, and a new start deletes it', async () => {
    const poller = ctx.container.chanB.poller!;
    bot.setWebhookActive(true);
    const blocked = await waitFor('backing off', async () => {
      const now = await status();
      return now.polling === 'backing_off' ? now : null;
    });
    expect(blocked.lastError?.message).toContain(
      "409: Conflict: can't use getUpdates method while webhook is active",
    );
    const tries = bot.callsOf('getUpdates').filter((c) => c.status === 409).length;
    await waitFor(
      'another try after the delay',
      () => bot.callsOf('getUpdates').filter((c) => c.status === 409).length > tries,
    );

    const deletes = bot.callsOf('deleteWebhook').length;
    await poller.stop();
    poller.start();
    // The state reads `polling` from the moment the lock is taken, a moment before the webhook is deleted.
    await waitFor('the webhook deleted', () => bot.callsOf('deleteWebhook').length > deletes);
    await waitFor('polling again', async () => (await status()).polling === 'polling');
    const last = bot.callsOf('deleteWebhook').at(-1)!;
    expect(bot.callsOf('getUpdates').filter((c) => c.seq > last.seq && c.status === 409)).toEqual([]);
  });

  it('waits in standby while a dead worker’s lock lives, then takes over when its TTL runs out', async () => {
    const poller = ctx.container.chanB.poller!;
    await poller.stop();
    expect((await status()).polling).toBe('stopped');
    // A holder that died without releasing: its lock lives until its TTL runs out.
    await ctx.container.kv.set(CHANB_KEYS.lock, 'dead-host-1-abcdef', 1500);
    poller.start();
    const waiting = await waitFor('standby', async () => {
      const now = await status();
      return now.polling === 'standby' ? now : null;
    });
    expect(waiting.lockHolder).toBe('dead-host-1-abcdef');
    expect(poller.isHolder()).toBe(false);
    await waitFor('the takeover', async () => {
      const now = await status();
      return now.polling === 'polling' && now.lockHolder === poller.workerId;
    });
    expect(poller.isHolder()).toBe(true);
  });
});

/** A worker process on `database` (kept open across instances), as main.ts starts one. */
async function startService(
  database: DatabaseHandle,
  env: Record<string, string>,
  redis: ReturnType<typeof testRedis>,
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-chanb-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}),
    ...env,
  });
  const container = await createContainer(config, {
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    // The next instance opens the same data: this one must not close it.
    database: { ...database, close: async () => undefined },
  });
  startWorkers(container);
  return {
    container,
    async close() {
      await container.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('a restart of the service', () => {
  it('handles updates pushed while it was stopped once, after it starts again', async () => {
    const bot = await startFakeBotServer({ token: TOKEN });
    const database = await createTestDatabase();
    const redis = testRedis();
    try {
      const first = await startService(database, chanBEnv(bot), redis);
      const scene = await createPipelineScene(first.container);
      const chat = newChat();
      await first.container.pipeline.repositories.senders.insertIdentity(
        'chanB',
        String(chat),
        scene.employee.user.id,
        first.container.db,
      );
      const before = bot.textUpdate(chat, 'How many vacation days do I have?');
      const beforeId = bot.pushUpdate(before);
      await waitFor(
        'the first update',
        async () => (await storedIds(first.container, [idOf(before)])).length === 1,
      );
      await waitFor(
        'the offset past it',
        async () => Number(await first.container.kv.get(CHANB_KEYS.offset)) > beforeId,
      );
      await first.close();

      const whileDown = [
        bot.textUpdate(chat, 'And sick leave?'),
        bot.textUpdate(chat, 'And public holidays?'),
      ];
      for (const update of whileDown) bot.pushUpdate(update);
      const callsBefore = bot.calls.length;

      const second = await startService(database, chanBEnv(bot), redis);
      try {
        const all = [before, ...whileDown].map(idOf);
        await waitFor(
          'the updates pushed while stopped',
          async () => (await storedIds(second.container, all)).length === 3,
        );
        const resumed = bot.calls.slice(callsBefore).find((c) => c.method === 'getUpdates');
        expect(resumed?.body.offset).toBe(beforeId + 1);
        // Each stored once, each with one task.
        const rows = await second.container.db
          .select({ id: messages.id, channelMessageId: messages.channelMessageId })
          .from(messages)
          .where(and(eq(messages.channel, 'chanB'), inArray(messages.channelMessageId, all)));
        expect(rows.map((r) => r.channelMessageId).sort()).toEqual([...all].sort());
        const tasks = await second.container.db
          .select({ id: agentTasks.id })
          .from(agentTasks)
          .where(
            inArray(
              agentTasks.messageId,
              rows.map((r) => r.id),
            ),
          );
        expect(tasks).toHaveLength(3);
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
      await bot.close();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)('the poller election across worker processes (Redis)', () => {
  it('lets one of two workers poll, and the other takes over within the lock TTL when it stops', async () => {
    const bot = await startFakeBotServer({ token: TOKEN });
    const first = await createPipelineTestApp(chanBEnv(bot), { workers: true });
    const second = await startSecondWorker(first.container, chanBEnv(bot));
    const open = new Set([first, second]);
    try {
      const pollers = [first.container.chanB.poller!, second.container.chanB.poller!];
      const holder = await waitFor('one holder', () => pollers.find((p) => p.isHolder()));
      const other = pollers.find((p) => p !== holder)!;
      await waitFor(
        'the other in standby',
        async () => (await first.container.kv.get(CHANB_KEYS.standby)) === other.workerId,
      );
      // Several long polls, never two at once, never a conflict.
      await waitFor('a few long polls', () => bot.callsOf('getUpdates').length >= 3);
      expect(other.isHolder()).toBe(false);
      expect(bot.maxConcurrentPolls()).toBe(1);
      expect(bot.callsOf('getUpdates').filter((c) => c.status === 409)).toEqual([]);

      const stopping = holder === pollers[0] ? first : second;
      const staying = stopping === first ? second : first;
      await stopping.close();
      open.delete(stopping);
      await waitFor('the takeover', () => other.isHolder());
      const scene = await createPipelineScene(staying.container);
      const chat = newChat();
      await staying.container.pipeline.repositories.senders.insertIdentity(
        'chanB',
        String(chat),
        scene.employee.user.id,
        staying.container.db,
      );
      const update = bot.textUpdate(chat, 'Who approves my leave?');
      bot.pushUpdate(update);
      await waitFor(
        'the update, polled by the other worker',
        async () => (await storedIds(staying.container, [idOf(update)])).length === 1,
      );
      expect((await staying.container.chanB.status.get()).lockHolder).toBe(other.workerId);
    } finally {
      for (const instance of open) await instance.close();
      await bot.close();
    }
  });
});
