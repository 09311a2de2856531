import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { CHANB_KEYS } from './poller-state.js';

/** No CHANB_BOT_TOKEN, and workers running: nothing polls. */
const ctx = useTestApp({}, { workers: true });

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/chanB/status', permission: 'canEditSettings' });

describe('GET /chanB/status', () => {
  it('says channel B is not configured without a bot token, and no poller runs', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/chanB/status', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      configured: false,
      botUsername: null,
      polling: 'stopped',
      lockHolder: null,
      lastUpdateId: null,
      lastError: null,
      queues: {
        'chanB-inbound': { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 },
        'chanB-outbound': { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 },
      },
    });
    expect(ctx.container.chanB.poller).toBeNull();
    expect(await ctx.container.kv.get(CHANB_KEYS.lock)).toBeNull();
  });

  it('answers a user holding canEditSettings through an extra grant', async () => {
    const operator = await createUser(ctx.container, { extraPermissions: ['canEditSettings'] });
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/chanB/status',
      headers: operator.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().configured).toBe(false);
  });
});
