import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBotServer, startFakeBotServer } from '../../../test/fakes/chanB-bot-server.js';
import type { OutboundMessage } from '../outbound/transport.js';
import { createBotApi } from './bot-api.js';
import { createChanBTransport, MAX_MESSAGE_CHARS, splitForBot } from './chan-b.transport.js';

const TOKEN = '123456:transport-test-token';
let fake: FakeBotServer;
let transport: ReturnType<typeof createChanBTransport>;

beforeAll(async () => {
  fake = await startFakeBotServer({ token: TOKEN });
  transport = createChanBTransport({
    api: createBotApi({ botToken: TOKEN, apiBaseUrl: fake.url }),
    ratePerMinute: 30,
  });
});
afterAll(() => fake.close());

let chat = 500_000;
function message(content: string, partsSent = 0): OutboundMessage {
  chat += 1;
  return {
    id: randomUUID(),
    conversationId: randomUUID(),
    departmentId: randomUUID(),
    channelUserId: String(chat),
    content,
    language: 'en',
    partsSent,
  };
}
const sentTo = (m: OutboundMessage) => fake.sent.filter((s) => s.chatId === m.channelUserId);

const RESERVED =
  'Costs (2025): 1+1=2, a-b=c; see [policy](https://example.com/a_(b)) #tag {x} | y > z! **Bold.** _it_ ~~old~~ `a_b` done.';

describe('chanB transport', () => {
  it('sends a reply full of reserved characters as MarkdownV2 that a strict parser accepts', async () => {
    const m = message(RESERVED);
    const outcome = await transport.send(m);
    expect(outcome.kind).toBe('sent');
    const [sent] = sentTo(m);
    expect(sent?.parseMode).toBe('MarkdownV2');
    expect(sent?.plain).toBe(
      'Costs (2025): 1+1=2, a-b=c; see policy #tag {x} | y > z! Bold. it old a_b done.',
    );
    expect(outcome).toEqual({ kind: 'sent', platformMessageIds: [`${m.channelUserId}-${sent?.messageId}`] });
  });

  it('falls back to HTML when the platform refuses the MarkdownV2 entities, then to plain text', async () => {
    const html = await startFakeBotServer({ token: TOKEN });
    try {
      const fallback = createChanBTransport({
        api: createBotApi({ botToken: TOKEN, apiBaseUrl: html.url }),
        ratePerMinute: 30,
      });
      html.refuseParseMode('MarkdownV2');
      const first = message(RESERVED);
      expect((await fallback.send(first)).kind).toBe('sent');
      expect(html.callsOf('sendMessage').map((c) => [c.body.parse_mode ?? null, c.status])).toEqual([
        ['MarkdownV2', 400],
        ['HTML', 200],
      ]);
      expect(html.sent[0]?.text).toContain('<b>Bold.</b>');

      html.refuseParseMode('HTML');
      const second = message(RESERVED);
      expect((await fallback.send(second)).kind).toBe('sent');
      expect(html.sent[1]).toMatchObject({ parseMode: null, chatId: second.channelUserId });
      expect(html.sent[1]?.text).toContain('Bold.');
    } finally {
      await html.close();
    }
  });

  it('asks for a retry after the platform’s retry_after on 429, and a resumed try sends only the rest', async () => {
    const long = Array.from({ length: 3 }, (_, i) => `Part ${i}: ${'word '.repeat(700).trim()}.`).join(
      '\n\n',
    );
    const parts = splitForBot(long);
    expect(parts.length).toBeGreaterThan(1);
    const m = message(long);
    fake.replyNext('sendMessage', fake.error(429, 'Too Many Requests: retry after 3', { retry_after: 3 }), 1);
    const first = await transport.send(m);
    expect(first).toMatchObject({ kind: 'retry', retryAfterMs: 3000, partsSent: 1 });
    expect(first.platformMessageIds).toHaveLength(1);

    const second = await transport.send({ ...m, partsSent: first.kind === 'retry' ? first.partsSent : -1 });
    expect(second.kind).toBe('sent');
    expect(second.platformMessageIds).toHaveLength(parts.length - 1);
    const shown = sentTo(m).map((s) => s.plain);
    expect(shown).toHaveLength(parts.length);
    expect(shown.map((text) => text.slice(0, 6))).toEqual(parts.map((p) => p.slice(0, 6)));
  });

  it('cuts a reply over 4,096 characters into ordered parts that each fit', async () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `Section ${i + 1}. ${'Lorem (ipsum) dolor-sit. '.repeat(40)}`,
    );
    const m = message(paragraphs.join('\n\n'));
    const outcome = await transport.send(m);
    expect(outcome.kind).toBe('sent');
    const sent = sentTo(m);
    expect(sent.length).toBeGreaterThan(2);
    expect(outcome.platformMessageIds).toEqual(sent.map((s) => `${m.channelUserId}-${s.messageId}`));
    for (const part of sent) expect(part.text.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    const order = sent.flatMap((s) => [...s.plain.matchAll(/Section (\d+)\./g)].map((hit) => Number(hit[1])));
    expect(order).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('maps 5xx and network errors to a retry and other refusals to a final failure', async () => {
    fake.replyNext('sendMessage', fake.error(502, 'Bad Gateway'));
    const busy = await transport.send(message('hello'));
    expect(busy).toMatchObject({ kind: 'retry', partsSent: 0, reason: 'sendMessage: 502: Bad Gateway' });
    expect(busy.kind === 'retry' && busy.retryAfterMs).toBe(undefined);

    fake.replyNext('sendMessage', fake.error(403, 'Forbidden: bot was blocked by the user'));
    expect(await transport.send(message('hello'))).toEqual({
      kind: 'failed',
      reason: 'sendMessage: 403: Forbidden: bot was blocked by the user',
      partsSent: 0,
      platformMessageIds: [],
    });

    const offline = createChanBTransport({
      api: createBotApi({ botToken: TOKEN, apiBaseUrl: 'http://127.0.0.1:9' }),
      ratePerMinute: 30,
    });
    expect(await offline.send(message('hello'))).toMatchObject({ kind: 'retry', partsSent: 0 });
  });

  it('is not configured without a bot token', async () => {
    const none = createChanBTransport({
      api: createBotApi({ botToken: null, apiBaseUrl: fake.url }),
      ratePerMinute: 30,
    });
    expect(none.configured()).toBe(false);
    expect(transport.configured()).toBe(true);
    expect((await none.send(message('hello'))).kind).toBe('failed');
  });
});
