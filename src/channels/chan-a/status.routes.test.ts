import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { chanATokenKeys } from './token-lifecycle.js';

const SECRET_TOKEN = 'EAAG-secret-token-never-returned';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    CHANA_PHONE_NUMBER_ID: '106540352242922',
    CHANA_PHONE_NUMBER: '15550002222',
    CHANA_ACCESS_TOKEN: SECRET_TOKEN,
  });
});
afterAll(() => ctx?.close());

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/chanA/status', permission: 'canEditSettings' });

describe('GET /chanA/status', () => {
  it('reports configuration, token expiry and source, last times and queue counts, never the token', async () => {
    const { app, container } = ctx;
    const admin = await createUser(container, { role: 'admin' });
    const keys = chanATokenKeys('15550002222');
    await container.kv.set(keys.accessToken, SECRET_TOKEN);
    await container.kv.set(keys.expiresAt, String(Date.parse('2027-01-22T09:00:00Z')));
    await container.kv.set('chanA:last-outbound-at', '2026-11-23T08:58:20.000Z');
    await container.queue.add('chanA-outbound', 'send', { messageId: 'none' }, { delayMs: 3_600_000 });

    const res = await app.inject({ method: 'GET', url: '/api/v1/chanA/status', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      configured: true,
      phoneNumberId: '106540352242922',
      tokenExpiresAt: '2027-01-22T09:00:00.000Z',
      tokenSource: 'configured',
      lastOutboundAt: '2026-11-23T08:58:20.000Z',
    });
    expect(body.queues['chanA-outbound'].delayed).toBeGreaterThanOrEqual(1);
    expect(Object.keys(body.queues['chanA-inbound']).sort()).toEqual([
      'active',
      'completed',
      'delayed',
      'failed',
      'waiting',
    ]);
    expect(res.body).not.toContain(SECRET_TOKEN);

    await container.kv.set(keys.accessToken, 'exchanged-long-lived');
    await container.kv.set(keys.expiresAt, '');
    const after = (
      await app.inject({ method: 'GET', url: '/api/v1/chanA/status', headers: admin.headers })
    ).json();
    expect(after).toMatchObject({ tokenSource: 'exchanged', tokenExpiresAt: null });
    expect(JSON.stringify(after)).not.toContain('exchanged-long-lived');
  });
});
