import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';

describe('GET /health', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx?.close());

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
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx?.close());

  it('answers 503 degraded and names the database', async () => {
    await ctx.container.database.close();
    const res = await ctx.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'degraded', checks: { database: 'down' } });
  });
});
