import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGraphServer, startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import { startHttpServer } from '../../../test/http-server.js';
import { createGraphClient, parseRetryAfter } from './graph-client.js';

let fake: FakeGraphServer;
beforeAll(async () => {
  fake = await startFakeGraphServer();
});
afterAll(() => fake?.close());

const to = { phoneNumberId: '1065', token: 'tok', to: '380501112233' };
const text = { type: 'text' as const, text: { body: 'hi', preview_url: false } };

describe('Graph client', () => {
  it('answers the platform’s message id', async () => {
    const graph = createGraphClient({ baseUrl: `${fake.url}/v21.0/` });
    const result = await graph.sendMessage(to, text);
    expect(result).toMatchObject({ ok: true, value: { id: expect.stringMatching(/^wamid\.fake-/) } });
  });

  it('maps errors: 429 and 5xx and throttling codes are retryable, other 4xx are not', async () => {
    const graph = createGraphClient({ baseUrl: fake.url });
    fake.replyNext('messages', {
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { message: 'Slow down', type: 'OAuthException', code: 4, fbtrace_id: 'x' } },
    });
    expect(await graph.sendMessage(to, text)).toEqual({
      ok: false,
      failure: {
        status: 429,
        code: 4,
        reason: 'Graph API 429 (code 4): Slow down',
        retryAfterMs: 7000,
        retryable: true,
      },
    });
    fake.replyNext('messages', fake.graphError(400, 'Spam rate limit hit', 131048));
    expect(await graph.sendMessage(to, text)).toMatchObject({ ok: false, failure: { retryable: true } });
    fake.replyNext('messages', fake.graphError(500, 'Unknown error', 1));
    expect(await graph.sendMessage(to, text)).toMatchObject({
      ok: false,
      failure: { status: 500, retryable: true },
    });
    fake.replyNext('messages', {
      status: 400,
      body: {
        error: {
          message: '(#131026) Message undeliverable',
          type: 'OAuthException',
          code: 131026,
          error_data: {
            messaging_product: 'whatsapp',
            details: 'Receiver is incapable of receiving this message',
          },
          fbtrace_id: 'x',
        },
      },
    });
    expect(await graph.sendMessage(to, text)).toEqual({
      ok: false,
      failure: {
        status: 400,
        code: 131026,
        reason:
          'Graph API 400 (code 131026): (#131026) Message undeliverable (Receiver is incapable of receiving this message)',
        retryable: false,
      },
    });
  });

  it('treats no answer as retryable and never puts the token in a reason', async () => {
    const closed = await startHttpServer((_req, res) => res.end());
    const url = closed.url;
    await closed.close();
    const result = await createGraphClient({ baseUrl: url }).sendMessage(to, text);
    expect(result).toEqual({
      ok: false,
      failure: { status: 0, code: null, reason: 'Graph API unreachable', retryable: true },
    });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
