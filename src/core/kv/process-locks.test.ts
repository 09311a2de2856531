import { describe, expect, it } from 'vitest';
import { createProcessLocks } from './process-locks.js';

/** A clock the test moves by hand. */
function manualClock() {
  let at = 1_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe('process locks', () => {
  it('takes a free key, refuses a held one, and takes it again once its ttl has passed', async () => {
    const clock = manualClock();
    const locks = createProcessLocks(clock.now);
    expect(await locks.setIfAbsent('k', 'a', 100)).toBe(true);
    expect(await locks.setIfAbsent('k', 'b', 100)).toBe(false);
    clock.advance(99);
    expect(await locks.setIfAbsent('k', 'b', 100)).toBe(false);
    clock.advance(1);
    expect(await locks.setIfAbsent('k', 'b', 100)).toBe(true);
    expect(await locks.deleteIfEquals('k', 'a')).toBe(false);
    expect(await locks.deleteIfEquals('k', 'b')).toBe(true);
  });

  it('renews only for the holder, and a renewed lock outlives its first ttl', async () => {
    const clock = manualClock();
    const locks = createProcessLocks(clock.now);
    expect(await locks.extendIfEquals('k', 'a', 100)).toBe(false);
    await locks.setIfAbsent('k', 'a', 100);
    expect(await locks.extendIfEquals('k', 'b', 1_000)).toBe(false);
    clock.advance(50);
    expect(await locks.extendIfEquals('k', 'a', 1_000)).toBe(true);
    clock.advance(500);
    expect(await locks.setIfAbsent('k', 'b', 100)).toBe(false);
    clock.advance(500);
    expect(await locks.extendIfEquals('k', 'a', 1_000)).toBe(false);
    expect(await locks.setIfAbsent('k', 'b', 100)).toBe(true);
  });

  it('releases only for the holder, and not a lapsed lock', async () => {
    const clock = manualClock();
    const locks = createProcessLocks(clock.now);
    await locks.setIfAbsent('k', 'a', 100);
    expect(await locks.deleteIfEquals('k', 'b')).toBe(false);
    expect(await locks.setIfAbsent('k', 'b', 100)).toBe(false);
    expect(await locks.deleteIfEquals('k', 'a')).toBe(true);
    expect(await locks.deleteIfEquals('k', 'a')).toBe(false);
    await locks.setIfAbsent('k', 'a', 100);
    clock.advance(100);
    expect(await locks.deleteIfEquals('k', 'a')).toBe(false);
    expect(await locks.setIfAbsent('other', 'a', 100)).toBe(true);
  });
});
