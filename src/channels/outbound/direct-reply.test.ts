import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { type FakeBotServer, startFakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import { createBotApi } from '../chan-b/bot-api.js';
import { createChanBTransport } from '../chan-b/chan-b.transport.js';
import { createDirectReplies } from './direct-reply.js';
import { createTokenBucket } from './token-bucket.js';

const TOKEN = '7000004:direct-reply-token';
const ctx = useTestApp();
let bot: FakeBotServer;
beforeAll(async () => {
  bot = await startFakeBotServer({ token: TOKEN });
});
afterAll(() => bot?.close());

const silent = { info: () => undefined, warn: () => undefined };
let nextChat = 930_000_000 + Math.floor(Math.random() * 1_000_000);
const newChat = () => {
  nextChat += 1;
  return String(nextChat);
};

/** Replies through the real channel B transport to the fake platform, under a bucket of `perMinute`. */
function replies(perMinute = 100) {
  const transport = createChanBTransport({
    api: createBotApi({ botToken: TOKEN, apiBaseUrl: bot.url }),
    ratePerMinute: perMinute,
  });
  const bucket = createTokenBucket({
    kv: ctx.container.kv,
    channel: `test-${randomBytes(3).toString('hex')}`,
    perMinute,
  });
  return createDirectReplies({ kv: ctx.container.kv, transport, bucket, logger: silent });
}

describe('replies outside a conversation', () => {
  it('sends once per inbound message: a replayed job composes and sends nothing again', async () => {
    const direct = replies();
    const chat = newChat();
    const key = `${chat}-1`;
    let composed = 0;
    const compose = async () => {
      composed += 1;
      return 'Linked.';
    };
    expect(await direct.send(key, chat, compose)).toBe('sent');
    expect(await direct.send(key, chat, compose)).toBe('duplicate');
    expect(composed).toBe(1);
    expect(bot.sent.filter((s) => s.chatId === chat).map((s) => s.plain)).toEqual(['Linked.']);
  });

  it('throws on a passing failure, and the retry sends the text composed the first time', async () => {
    const direct = replies();
    const chat = newChat();
    const key = `${chat}-1`;
    bot.replyNext('sendMessage', {
      status: 500,
      body: { ok: false, error_code: 500, description: 'Internal' },
    });
    let composed = 0;
    const compose = async () => {
      composed += 1;
      return `Answer ${composed}`;
    };
    await expect(direct.send(key, chat, compose)).rejects.toThrow(/500/);
    expect(await direct.send(key, chat, compose)).toBe('sent');
    expect(composed).toBe(1);
    expect(bot.sent.filter((s) => s.chatId === chat).map((s) => s.plain)).toEqual(['Answer 1']);
  });

  it('drops a reply over the recipient’s rate limit instead of queueing it', async () => {
    const direct = replies(1);
    const chat = newChat();
    expect(await direct.send(`${chat}-1`, chat, async () => 'First')).toBe('sent');
    expect(await direct.send(`${chat}-2`, chat, async () => 'Second')).toBe('limited');
    expect(bot.sent.filter((s) => s.chatId === chat).map((s) => s.plain)).toEqual(['First']);
  });
});
