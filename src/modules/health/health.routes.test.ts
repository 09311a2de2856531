import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext, useTestApp } from '../../../test/app.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';

describe('GET /health', () => {
  const ctx = useTestApp();

  it('answers ok with version, uptime and checks, without authentication, at both paths', async () => {
    for (const url of ['/health', '/api/v1/health']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ok',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        uptimeSec: expect.any(Number),
        checks: { database: 'ok', queue: 'ok', llm: 'offline' },
      });
    }
  });
});

describe('GET /health with the database gone', () => {
  const ctx = useTestApp();

  it('answers 503 degraded and names the database', async () => {
    await ctx.container.database.close();
    const res = await ctx.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      checks: { database: 'down' },
      reason: expect.stringMatching(/^the database is unreachable/),
    });
  });
});

describe('GET /health with an LLM provider configured', () => {
  let fake: FakeLlmServer;
  let gone: FakeLlmServer;
  let up: TestContext;
  let down: TestContext;
  let refused: TestContext;
  beforeAll(async () => {
    fake = await startFakeLlmServer();
    gone = await startFakeLlmServer();
    await gone.close();
    up = await createTestApp({ LLM_API_KEY: fake.apiKey, LLM_BASE_URL: fake.baseUrl });
    down = await createTestApp({ LLM_API_KEY: gone.apiKey, LLM_BASE_URL: gone.baseUrl });
    refused = await createTestApp({ LLM_API_KEY: 'not-the-key', LLM_BASE_URL: fake.baseUrl });
  });
  afterAll(async () => {
    await up?.close();
    await down?.close();
    await refused?.close();
    await fake?.close();
  });

  it('answers ok with llm ok while the provider answers', async () => {
    const res = await up.app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', checks: { database: 'ok', queue: 'ok', llm: 'ok' } });
    expect(res.json()).not.toHaveProperty('reason');
    expect(fake.requestsTo('/v1/models').length).toBeGreaterThan(0);
  });

  it('answers 200 degraded with llm unreachable and a reason while the provider is down', async () => {
    const res = await down.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      checks: { database: 'ok', queue: 'ok', llm: 'unreachable' },
      reason: expect.stringContaining('the LLM provider cannot be reached'),
    });
  });

  it('answers 200 degraded with llm unauthorized when the key is refused', async () => {
    const res = await refused.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      checks: { llm: 'unauthorized' },
      reason: 'the LLM provider refuses LLM_API_KEY (HTTP 401)',
    });
  });

  it('still answers 503 when the database is gone, with both reasons', async () => {
    await down.container.database.close();
    const res = await down.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      checks: { database: 'down', llm: 'unreachable' },
      // The embedded queue lives in the database, so it may be named too.
      reason: expect.stringMatching(/^the database is unreachable; .*the LLM provider cannot be reached/),
    });
  });
});
