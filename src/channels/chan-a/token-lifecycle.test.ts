import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { type FakeGraphServer, startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import { createGraphClient } from './graph-client.js';
import { chanATokenKeys, createTokenLifecycle } from './token-lifecycle.js';

const DAY = 86_400_000;
const ctx = useTestApp();
let fake: FakeGraphServer;
beforeAll(async () => {
  fake = await startFakeGraphServer();
});
afterAll(() => fake?.close());

/** A token lifecycle for a sender number of its own, on the app's key-value store and the fake Graph API. */
function lifecycle(
  overrides: { appId?: string | null; accessToken?: string | null; phoneNumber?: string } = {},
) {
  const phoneNumber = overrides.phoneNumber ?? `1555${randomBytes(3).toString('hex')}`;
  const config = {
    ...ctx.container.config.chanA,
    appId: 'appId' in overrides ? (overrides.appId ?? null) : 'app-7',
    appSecret: 'secret-7',
    phoneNumberId: '1065',
    phoneNumber,
    accessToken: 'accessToken' in overrides ? (overrides.accessToken ?? null) : 'env-token',
  };
  const tokens = createTokenLifecycle({
    kv: ctx.container.kv,
    graph: createGraphClient({ baseUrl: `${fake.url}/v21.0` }),
    config,
    logger: ctx.container.logger,
  });
  return { tokens, keys: chanATokenKeys(phoneNumber), phoneNumber };
}

const exchanges = () => fake.requests.filter((r) => r.path === '/oauth/access_token');

describe('chanA token lifecycle', () => {
  it('stores CHANA_ACCESS_TOKEN when none is stored, its expiry unknown', async () => {
    const { tokens, keys } = lifecycle();
    expect(await tokens.check()).toEqual({ action: 'kept', expiresAt: null });
    expect(await ctx.container.kv.get(keys.accessToken)).toBe('env-token');
    expect(await ctx.container.kv.get(keys.expiresAt)).toBe('');
    expect(await tokens.describe()).toEqual({ expiresAt: null, source: 'configured' });
  });

  it('replaces the stored token, exchanged or not, when CHANA_ACCESS_TOKEN changes', async () => {
    const first = lifecycle({ accessToken: 'first-token' });
    const { phoneNumber } = first;
    await first.tokens.check();
    // An exchange replaced the configured token; the configuration is unchanged, so it stays.
    await ctx.container.kv.set(first.keys.accessToken, 'exchanged-from-first');
    await ctx.container.kv.set(first.keys.expiresAt, String(Date.now() + 60 * DAY));
    const sameConfig = lifecycle({ accessToken: 'first-token', phoneNumber });
    await sameConfig.tokens.check();
    expect(await sameConfig.tokens.current()).toBe('exchanged-from-first');

    // The operator pastes a new token and restarts: the next check adopts it.
    const changed = lifecycle({ accessToken: 'second-token', phoneNumber });
    expect(await changed.tokens.check()).toEqual({ action: 'kept', expiresAt: null });
    expect(await changed.tokens.current()).toBe('second-token');
    expect(await changed.tokens.describe()).toEqual({ expiresAt: null, source: 'configured' });
    expect(await ctx.container.kv.get(changed.keys.configuredFingerprint)).not.toContain('second-token');
  });

  it('exchanges a token 3 days from expiry for a long-lived one and stores both keys', async () => {
    const { tokens, keys } = lifecycle();
    const now = Date.now();
    await ctx.container.kv.set(keys.accessToken, 'stored-short-token');
    await ctx.container.kv.set(keys.expiresAt, String(now + 3 * DAY));
    const before = exchanges().length;

    const result = await tokens.check(now);
    expect(result).toEqual({ action: 'exchanged', expiresAt: now + 60 * DAY });
    const [request, ...more] = exchanges().slice(before);
    expect(more).toEqual([]);
    expect(Object.fromEntries(request!.query)).toEqual({
      grant_type: 'fb_exchange_token',
      client_id: 'app-7',
      client_secret: 'secret-7',
      fb_exchange_token: 'stored-short-token',
    });
    expect(await ctx.container.kv.get(keys.accessToken)).toMatch(/^exchanged-token-\d+$/);
    expect(await ctx.container.kv.get(keys.expiresAt)).toBe(String(now + 60 * DAY));
    expect(await tokens.describe()).toEqual({ expiresAt: now + 60 * DAY, source: 'exchanged' });
    expect(await tokens.current()).toBe(await ctx.container.kv.get(keys.accessToken));
  });

  it('keeps a token 30 days from expiry, and one whose expiry is unknown', async () => {
    const { tokens, keys } = lifecycle();
    const now = Date.now();
    await ctx.container.kv.set(keys.accessToken, 'stored-long-token');
    await ctx.container.kv.set(keys.expiresAt, String(now + 30 * DAY));
    const before = exchanges().length;
    expect(await tokens.check(now)).toEqual({ action: 'kept', expiresAt: now + 30 * DAY });
    await ctx.container.kv.set(keys.expiresAt, '');
    expect(await tokens.check(now)).toEqual({ action: 'kept', expiresAt: null });
    expect(exchanges().length).toBe(before);
    expect(await ctx.container.kv.get(keys.accessToken)).toBe('stored-long-token');
  });

  it('keeps the old token when the exchange is refused or cannot be made', async () => {
    const { tokens, keys } = lifecycle();
    const now = Date.now();
    await ctx.container.kv.set(keys.accessToken, 'old-token');
    await ctx.container.kv.set(keys.expiresAt, String(now + DAY));
    fake.replyNext('token', fake.graphError(400, 'Error validating access token', 190));
    expect(await tokens.check(now)).toEqual({
      action: 'exchange-failed',
      expiresAt: now + DAY,
      reason: 'Graph API 400 (code 190): Error validating access token',
    });
    expect(await ctx.container.kv.get(keys.accessToken)).toBe('old-token');

    const withoutApp = lifecycle({ appId: null });
    await ctx.container.kv.set(withoutApp.keys.accessToken, 'old-token');
    await ctx.container.kv.set(withoutApp.keys.expiresAt, String(now + DAY));
    expect(await withoutApp.tokens.check(now)).toMatchObject({ action: 'exchange-failed' });
  });

  it('without any token there is nothing to check', async () => {
    const { tokens } = lifecycle({ accessToken: null });
    expect(await tokens.check()).toEqual({ action: 'unconfigured' });
    expect(await tokens.current()).toBeNull();
    expect(await tokens.describe()).toEqual({ expiresAt: null, source: 'none' });
  });
});
