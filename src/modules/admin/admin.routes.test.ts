import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { auditLogs } from '../../core/db/schema/index.js';
import { QUEUE_NAMES } from '../../core/queue/queue.js';
import { QUEUE_BOARD_COOKIE } from './admin.service.js';

const ctx = useTestApp();
const waitFor = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/admin/queues/session',
  permission: 'canEditSettings',
});
securityChecks(() => ctx, { method: 'GET', url: '/admin/queues', permission: 'canEditSettings' });
securityChecks(() => ctx, { method: 'GET', url: '/admin/queues/api/queues', permission: 'canEditSettings' });
securityChecks(() => ctx, {
  method: 'PUT',
  url: '/admin/queues/api/queues/agent-tasks/retry/failed',
  permission: 'canEditSettings',
});

/** The session cookie a POST /admin/queues/session sets, as `name=value`. */
async function sessionCookie(headers: Record<string, string>) {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/admin/queues/session', headers });
  expect(res.statusCode).toBe(200);
  const setCookie = String(res.headers['set-cookie']);
  return { res, setCookie, cookie: setCookie.split(';')[0]! };
}

describe('POST /admin/queues/session', () => {
  it('sets a short-lived HttpOnly SameSite=Strict cookie for the dashboard path only', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const before = Date.now();
    const { res, setCookie, cookie } = await sessionCookie(admin.headers);
    expect(res.json()).toEqual({ path: '/admin/queues', expiresAt: expect.any(String) });
    const expiresIn = Date.parse(res.json().expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 60_000);
    expect(cookie.startsWith(`${QUEUE_BOARD_COOKIE}=`)).toBe(true);
    const attributes = setCookie.split(';').map((part) => part.trim());
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/admin/queues', 'Max-Age=900', 'HttpOnly', 'SameSite=Strict']),
    );
    // The token is in the cookie only, never in the body.
    expect(res.body).not.toContain(cookie.split('=')[1]);
  });
});

describe('GET /admin/queues', () => {
  it('serves the dashboard page with a bearer token', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const res = await ctx.app.inject({ url: '/admin/queues', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('/admin/queues');
  });

  it('lists all seven queues with their counts by state, through the bearer header or the cookie', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    await ctx.container.queue.add('chanB-outbound', 'send', { n: 1 }, { delayMs: 3_600_000 });
    const { cookie } = await sessionCookie(admin.headers);
    for (const headers of [admin.headers, { cookie }]) {
      const res = await ctx.app.inject({ url: '/admin/queues/api/queues', headers });
      expect(res.statusCode).toBe(200);
      const queues = res.json().queues as Array<{ name: string; counts: Record<string, number> }>;
      expect(queues.map((q) => q.name).sort()).toEqual([...QUEUE_NAMES].sort());
      for (const queue of queues) {
        expect(queue.counts).toMatchObject({ waiting: expect.any(Number), failed: expect.any(Number) });
      }
      expect(queues.find((q) => q.name === 'chanB-outbound')?.counts.delayed).toBe(1);
    }
  });

  it('refuses a session cookie as an API token, an API token as the cookie, and a forged cookie', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const { cookie } = await sessionCookie(admin.headers);
    const sessionToken = cookie.split('=')[1]!;
    const api = await ctx.app.inject({
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${sessionToken}` },
    });
    expect(api.statusCode).toBe(401);
    for (const value of [admin.token, `${sessionToken.slice(0, -4)}AAAA`]) {
      const res = await ctx.app.inject({
        url: '/admin/queues/api/queues',
        headers: { cookie: `${QUEUE_BOARD_COOKIE}=${value}` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('UnauthorizedError');
    }
  });

  it('answers 403 for a cookie whose holder lost canEditSettings, and 401 once the tokens are revoked', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const { cookie } = await sessionCookie(admin.headers);
    const other = await createUser(ctx.container, { role: 'admin' });
    const revoke = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/users/${admin.user.id}/permissions/revoke`,
      headers: other.headers,
      payload: { permission: 'canEditSettings' },
    });
    expect(revoke.statusCode).toBe(200);
    const forbidden = await ctx.app.inject({ url: '/admin/queues/api/queues', headers: { cookie } });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('ForbiddenError');
    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/logout-all',
      headers: admin.headers,
    });
    expect(logout.statusCode).toBeLessThan(300);
    const res = await ctx.app.inject({ url: '/admin/queues/api/queues', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });
});

describe('dashboard actions', () => {
  it('retries failed jobs and cleans completed ones, each action audited with the queue and the user', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const { queue } = ctx.container;
    let calls = 0;
    queue.process('memory-extraction', async (job) => {
      calls += 1;
      if (job.name === 'bad') throw new Error('no memory today');
    });
    const bad = await queue.add('memory-extraction', 'bad', {}, { attempts: 1 });
    await queue.add('memory-extraction', 'good', {});
    await waitFor(async () =>
      expect(await queue.counts('memory-extraction')).toMatchObject({ failed: 1, completed: 1 }),
    );
    const { cookie } = await sessionCookie(admin.headers);

    const listed = await ctx.app.inject({
      url: '/admin/queues/api/queues?activeQueue=memory-extraction&status=failed&page=1&jobsPerPage=10',
      headers: { cookie },
    });
    expect(listed.statusCode).toBe(200);
    const failedQueue = listed.json().queues.find((q: { name: string }) => q.name === 'memory-extraction');
    expect(failedQueue.jobs).toEqual([
      expect.objectContaining({ id: bad, name: 'bad', failedReason: 'no memory today' }),
    ]);

    const retry = await ctx.app.inject({
      method: 'PUT',
      url: '/admin/queues/api/queues/memory-extraction/retry/failed',
      headers: { cookie },
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ retried: 1 });
    await waitFor(() => expect(calls).toBe(3));
    await waitFor(async () => expect((await queue.getJob('memory-extraction', bad))?.state).toBe('failed'));

    const clean = await ctx.app.inject({
      method: 'PUT',
      url: '/admin/queues/api/queues/memory-extraction/clean/completed',
      headers: admin.headers,
    });
    expect(clean.statusCode).toBe(200);

    const entries = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, admin.user.id), eq(auditLogs.entityType, 'queue')));
    expect(entries.map((e) => [e.action, e.entityId, e.changes])).toEqual(
      expect.arrayContaining([
        ['retry', 'memory-extraction', { queueStatus: 'failed' }],
        ['clean', 'memory-extraction', { queueStatus: 'completed' }],
      ]),
    );
  });

  it('answers an unknown queue with 404', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/admin/queues/api/queues/no-such-queue/retry/failed',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});
