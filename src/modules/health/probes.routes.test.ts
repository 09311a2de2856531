import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';

describe('GET /health/live and /health/ready', () => {
  const ctx = useTestApp();

  it('answers live, and ready with every check ok, without authentication', async () => {
    const live = await ctx.app.inject({ url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', queue: 'ok', migrations: 'ok' },
    });
  });

  it('is left out of the API docs', async () => {
    const paths = Object.keys((await ctx.app.inject({ url: '/docs/json' })).json().paths);
    expect(paths).not.toContain('/health/live');
    expect(paths).not.toContain('/health/ready');
  });
});

describe('GET /health/ready with the database unreachable', () => {
  const ctx = useTestApp();

  it('answers 503 naming the database while /health/live still answers 200', async () => {
    expect((await ctx.app.inject({ url: '/health/ready' })).statusCode).toBe(200);
    // Closing the handle ends the PostgreSQL pool (or shuts PGlite down): every query then fails as
    // it does when the server is gone, and nothing reopens it behind the probe's back.
    await ctx.container.database.close();
    const ready = await ctx.app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'not_ready', checks: { database: 'down' } });
    const live = await ctx.app.inject({ url: '/health/live' });
    expect(live.statusCode).toBe(200);
  });
});
