import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createTokenBucket, RATE_WINDOW_MS } from './token-bucket.js';

const ctx = useTestApp();
const recipient = () => `38050${randomBytes(3).toString('hex')}`;

describe('per-recipient token bucket', () => {
  it('allows the limit in a window, then says how long to wait, spreading the backlog over later windows', async () => {
    const bucket = createTokenBucket({ kv: ctx.container.kv, channel: 'test', perMinute: 3 });
    const who = recipient();
    const start = Date.now();
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await bucket.take(who, start + i));
    expect(answers.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    // The 4th to 6th wait for the next window, the 7th for the one after.
    expect(answers.slice(3, 6)).toEqual(
      [4, 5, 6].map((i) => ({ allowed: false, retryInMs: RATE_WINDOW_MS - (i - 1) })),
    );
    expect(answers[6]).toEqual({ allowed: false, retryInMs: 2 * RATE_WINDOW_MS - 6 });
    // Another recipient has a bucket of their own.
    expect(await bucket.take(recipient(), start)).toEqual({ allowed: true });
    // The next window is full again.
    expect(await bucket.take(who, start + RATE_WINDOW_MS)).toEqual({ allowed: true });
  });

  it('hands out exactly the limit to concurrent takers (one shared store, any number of workers)', async () => {
    const buckets = [1, 2, 3].map(() =>
      createTokenBucket({ kv: ctx.container.kv, channel: 'test', perMinute: 10 }),
    );
    const who = recipient();
    const now = Date.now();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => buckets[i % 3]!.take(who, now)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(10);
    for (const answer of answers.filter((a) => !a.allowed)) {
      expect(answer).toMatchObject({ allowed: false });
      expect((answer as { retryInMs: number }).retryInMs).toBeGreaterThan(0);
    }
  });
});
