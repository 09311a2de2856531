import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';
import { createLlmProbe } from './probe.js';

describe('LLM probe', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlmServer();
  });
  afterAll(() => fake?.close());

  it('finds a provider that answers reachable, and sends the key to {base}/models', async () => {
    fake.reset();
    const probe = createLlmProbe({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    // The fake has no /models route: its 404 still proves the provider is there.
    expect(await probe.check()).toEqual({ state: 'ok' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it('reports a refused key as unauthorized and a 5xx as error', async () => {
    const refused = createLlmProbe({ apiKey: 'wrong-key', baseUrl: fake.baseUrl });
    expect(await refused.check()).toMatchObject({
      state: 'unauthorized',
      reason: 'the LLM provider refuses LLM_API_KEY (HTTP 401)',
    });
    fake.failNext(503);
    const failing = createLlmProbe({ apiKey: fake.apiKey, baseUrl: fake.baseUrl });
    expect(await failing.check()).toMatchObject({
      state: 'error',
      reason: expect.stringContaining('HTTP 503'),
    });
  });

  it('reuses an answer while it is fresh and shares one request among concurrent callers', async () => {
    fake.reset();
    let clock = 1_000_000;
    const probe = createLlmProbe({
      apiKey: fake.apiKey,
      baseUrl: fake.baseUrl,
      cacheMs: 30_000,
      now: () => clock,
    });
    await Promise.all([probe.check(), probe.check(), probe.check()]);
    expect(fake.requests).toHaveLength(1);
    clock += 29_999;
    await probe.check();
    expect(fake.requests).toHaveLength(1);
    clock += 1;
    await probe.check();
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a closed address as unreachable, without the address in the reason', async () => {
    const gone = await startFakeLlmServer();
    await gone.close();
    const probe = createLlmProbe({ apiKey: gone.apiKey, baseUrl: gone.baseUrl });
    const result = await probe.check();
    expect(result).toMatchObject({ state: 'unreachable', reason: expect.stringContaining('ECONNREFUSED') });
    expect(result.state !== 'ok' && result.reason).not.toContain('127.0.0.1');
    expect(result.state !== 'ok' && result.detail).toContain(gone.baseUrl);
  });

  it('gives up on a provider that accepts the connection but never answers', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    try {
      const probe = createLlmProbe({
        apiKey: 'k',
        baseUrl: `http://127.0.0.1:${address.port}/v1`,
        timeoutMs: 200,
      });
      expect(await probe.check()).toMatchObject({
        state: 'unreachable',
        reason: 'the LLM provider cannot be reached (no answer within 200 ms)',
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
