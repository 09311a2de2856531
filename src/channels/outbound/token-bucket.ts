import type { KeyValue } from '../../core/kv/kv.js';

/** The bucket's period: `perMinute` messages per recipient per window. */
export const RATE_WINDOW_MS = 60_000;
/** A recipient's window anchor is forgotten after this long without a message to them. */
const ANCHOR_IDLE_MS = 10 * 60_000;

export type TakeResult = { allowed: true } | { allowed: false; retryInMs: number };

/**
 * The per-recipient rate limit of outbound messages, in the shared
 * key-value store, so every worker process and replica draws from one
 * bucket. It is a fixed-window bucket: `perMinute` tokens per window of a
 * minute, refilled whole when the next window starts. Windows are anchored
 * at the recipient's first message (key `<channel>:rate:<recipient>:anchor`,
 * kept while messages flow and forgotten after ten idle minutes), not at
 * the clock's minute, so a burst always starts a fresh window and its
 * overflow waits a whole window rather than the few seconds left of a
 * clock minute. Tokens are taken with the store's atomic increment
 * (Redis INCR; an upsert on the database), so concurrent workers never
 * hand out more than `perMinute` in a window. A refused take says how long
 * to wait: the n-th message over the limit waits for the window in which
 * its turn comes, so a backlog spreads over the following windows.
 * At a window's edge up to twice `perMinute` can go out within one minute
 * (the end of one window and the start of the next); the platform's own
 * limits are far above what that allows.
 */
export function createTokenBucket(deps: { kv: KeyValue; channel: string; perMinute: number }) {
  const { kv, channel, perMinute } = deps;

  return {
    perMinute,

    /** Takes one token for `recipient` at `now`; answers whether the message may go, or how long to wait. */
    async take(recipient: string, now = Date.now()): Promise<TakeResult> {
      const anchorKey = `${channel}:rate:${recipient}:anchor`;
      let anchor = now;
      if (!(await kv.setIfAbsent(anchorKey, String(now), ANCHOR_IDLE_MS))) {
        const stored = await kv.get(anchorKey);
        if (stored !== null) {
          anchor = Number(stored);
          await kv.extendIfEquals(anchorKey, stored, ANCHOR_IDLE_MS);
        } else {
          // Expired between the two calls: this message starts the next anchor.
          await kv.setIfAbsent(anchorKey, String(now), ANCHOR_IDLE_MS);
        }
      }
      const window = Math.max(0, Math.floor((now - anchor) / RATE_WINDOW_MS));
      const taken = await kv.increment(`${channel}:rate:${recipient}:${window}`, RATE_WINDOW_MS * 2);
      if (taken <= perMinute) return { allowed: true };
      const windowEnd = anchor + (window + 1) * RATE_WINDOW_MS;
      const windowsLater = Math.floor((taken - 1) / perMinute) - 1;
      return { allowed: false, retryInMs: Math.max(1, windowEnd - now) + windowsLater * RATE_WINDOW_MS };
    },
  };
}

export type TokenBucket = ReturnType<typeof createTokenBucket>;
