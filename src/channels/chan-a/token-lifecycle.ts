import { createHash } from 'node:crypto';
import type { Config } from '../../core/config/config.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { DriverLogger } from '../../core/logger.js';
import type { GraphClient } from './graph-client.js';

/** How often the token is checked (the scheduler's task `chanA-token-check`). */
export const TOKEN_CHECK_EVERY_MS = 6 * 3_600_000;
/** A token this close to its expiry is exchanged for a long-lived one. */
export const TOKEN_REFRESH_WITHIN_MS = 7 * 86_400_000;

/** The key-value keys of the token, under the sender's number. */
export function chanATokenKeys(phoneNumber: string) {
  return {
    accessToken: `chanA:token:${phoneNumber}:access_token`,
    /** Unix milliseconds, or an empty string when the expiry is unknown. */
    expiresAt: `chanA:token:${phoneNumber}:token_expires_at`,
    /** SHA-256 (hex) of the CHANA_ACCESS_TOKEN last seen, so a changed one is noticed; never the token. */
    configuredFingerprint: `chanA:token:${phoneNumber}:configured_sha256`,
  };
}

/** What a check did. */
export type TokenCheck =
  | { action: 'unconfigured' }
  | { action: 'kept'; expiresAt: number | null }
  | { action: 'exchanged'; expiresAt: number | null }
  | { action: 'exchange-failed'; expiresAt: number | null; reason: string };

/**
 * Channel A's access token, kept in the key-value store so every replica
 * sends with the same one and an exchange made by one is used by all:
 *
 * - `chanA:token:<CHANA_PHONE_NUMBER>:access_token` holds the token,
 *   `…:token_expires_at` its expiry in Unix milliseconds ('' when unknown);
 *   without CHANA_PHONE_NUMBER the phone-number id names the keys.
 * - Missing: CHANA_ACCESS_TOKEN is stored (expiry unknown).
 * - CHANA_ACCESS_TOKEN changed since the last check (its SHA-256 differs
 *   from the one stored): the new token replaces the stored one, exchanged
 *   or not, so an operator who pastes a new token and restarts sends with
 *   it. Each process compares once, at its first use of the token; the
 *   first comparison after an upgrade only records the fingerprint.
 * - Within 7 days of a known expiry: exchanged (`fb_exchange_token`, with
 *   CHANA_APP_ID and CHANA_APP_SECRET) for a long-lived token; both keys are
 *   written. A token whose expiry is unknown (a system user's token, which
 *   does not expire, or the configured one) is kept as it is.
 * - The sender reads the token from the store on every send, never from
 *   the configuration, so an exchange takes effect at once everywhere.
 *
 * The check runs at start and every 6 hours as a recurring task of the
 * scheduler (once across replicas). Tokens are never logged.
 */
export function createTokenLifecycle(deps: {
  kv: KeyValue;
  graph: GraphClient;
  config: Config['chanA'];
  logger: DriverLogger;
}) {
  const { kv, graph, config, logger } = deps;
  const owner = config.phoneNumber ?? config.phoneNumberId;
  const keys = owner ? chanATokenKeys(owner) : null;

  /** Reads the stored expiry: a number, or null when unknown. */
  async function storedExpiry(): Promise<number | null> {
    if (!keys) return null;
    const raw = await kv.get(keys.expiresAt);
    const value = raw ? Number(raw) : Number.NaN;
    return Number.isFinite(value) && value > 0 ? value : null;
  }

  // Compared once per process, at its first use of the token (a restart is what brings a new
  // configuration); a failed comparison is tried again at the next use.
  let adoption: Promise<void> | null = null;

  /**
   * The stored token; when none is stored, or CHANA_ACCESS_TOKEN changed,
   * CHANA_ACCESS_TOKEN is stored first. Null without either.
   */
  async function current(): Promise<string | null> {
    if (!keys) return null;
    adoption ??= adoptChangedConfiguredToken().catch((error: unknown) => {
      adoption = null;
      throw error;
    });
    await adoption;
    const stored = await kv.get(keys.accessToken);
    if (stored) return stored;
    if (!config.accessToken) return null;
    await kv.set(keys.accessToken, config.accessToken);
    if ((await kv.get(keys.expiresAt)) === null) await kv.set(keys.expiresAt, '');
    return config.accessToken;
  }

  /**
   * When the operator changed CHANA_ACCESS_TOKEN since the fingerprint was
   * recorded, stores the new token in place of the old (or its exchange).
   * With no fingerprint yet, records it and keeps what is stored.
   */
  async function adoptChangedConfiguredToken(): Promise<void> {
    if (!keys || !config.accessToken) return;
    const fingerprint = createHash('sha256').update(config.accessToken).digest('hex');
    const known = await kv.get(keys.configuredFingerprint);
    if (known === fingerprint) return;
    if (known !== null) {
      await kv.set(keys.accessToken, config.accessToken);
      await kv.set(keys.expiresAt, '');
      logger.warn({}, 'chanA: CHANA_ACCESS_TOKEN changed; the new token replaces the stored one');
    }
    await kv.set(keys.configuredFingerprint, fingerprint);
  }

  return {
    keys,
    current,
    storedExpiry,

    /**
     * Stores the configured token when none is or when it changed, and
     * exchanges one within 7 days of its expiry (`now` in Unix ms). An exchange that fails keeps
     * the old token (it still works until it expires) and is logged; the
     * next check tries again.
     */
    async check(now = Date.now()): Promise<TokenCheck> {
      const token = await current();
      if (!token || !keys) return { action: 'unconfigured' };
      const expiresAt = await storedExpiry();
      if (expiresAt === null || expiresAt - now > TOKEN_REFRESH_WITHIN_MS)
        return { action: 'kept', expiresAt };
      if (!config.appId || !config.appSecret) {
        const reason = 'the token expires within 7 days and CHANA_APP_ID or CHANA_APP_SECRET is not set';
        logger.warn({ expiresAt: new Date(expiresAt).toISOString() }, `chanA: ${reason}`);
        return { action: 'exchange-failed', expiresAt, reason };
      }
      const result = await graph.exchangeToken({ appId: config.appId, appSecret: config.appSecret, token });
      if (!result.ok) {
        logger.warn({ reason: result.failure.reason }, 'chanA: exchanging the access token failed');
        return { action: 'exchange-failed', expiresAt, reason: result.failure.reason };
      }
      const next = result.value.expiresInSec === null ? null : now + result.value.expiresInSec * 1000;
      await kv.set(keys.accessToken, result.value.accessToken);
      await kv.set(keys.expiresAt, next === null ? '' : String(next));
      return { action: 'exchanged', expiresAt: next };
    },

    /** For the status endpoint: the expiry and where the token came from, never the token. */
    async describe(): Promise<{ expiresAt: number | null; source: 'configured' | 'exchanged' | 'none' }> {
      if (!keys) return { expiresAt: null, source: 'none' };
      const stored = await kv.get(keys.accessToken);
      const expiresAt = await storedExpiry();
      if (!stored) return { expiresAt, source: config.accessToken ? 'configured' : 'none' };
      return { expiresAt, source: stored === config.accessToken ? 'configured' : 'exchanged' };
    },
  };
}

export type TokenLifecycle = ReturnType<typeof createTokenLifecycle>;
