import type { KeyValue } from './kv.js';

/** The lock operations of {@link KeyValue}: what a lock holder needs. */
export type LockStore = Pick<KeyValue, 'setIfAbsent' | 'extendIfEquals' | 'deleteIfEquals'>;

/**
 * Locks held in this process's memory, with the same semantics as the
 * key-value store's (a value, a time to live, conditional renewal and
 * release). For the embedded database only: PGlite admits one process, so
 * no other process can take a lock on its data, and a table row per lock
 * would cost two statements for nothing. A lock of a process that stops
 * goes with it, where a row would block its key until the TTL ran out.
 */
export function createProcessLocks(now: () => number = Date.now): LockStore {
  const held = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const lock = held.get(key);
    if (lock && lock.expiresAt <= now()) {
      held.delete(key);
      return undefined;
    }
    return lock;
  };
  return {
    async setIfAbsent(key, value, ttlMs) {
      if (live(key)) return false;
      held.set(key, { value, expiresAt: now() + ttlMs });
      return true;
    },
    async extendIfEquals(key, value, ttlMs) {
      const lock = live(key);
      if (lock?.value !== value) return false;
      lock.expiresAt = now() + ttlMs;
      return true;
    },
    async deleteIfEquals(key, value) {
      if (live(key)?.value !== value) return false;
      held.delete(key);
      return true;
    },
  };
}
