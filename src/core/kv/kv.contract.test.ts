import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testRedis } from '../../../test/database.js';
import { deleteRedisKeys } from '../../../test/redis.js';
import type { DatabaseHandle } from '../db/client.js';
import { createDatabaseKeyValue } from './database-kv.js';
import type { KeyValue } from './kv.js';
import { createRedisKeyValue } from './redis-kv.js';

let database: DatabaseHandle;
const redis = testRedis();
const stores: KeyValue[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await database.close();
  if (redis) await deleteRedisKeys(redis.url, `${redis.prefix}*`);
});

const implementations: Array<{ name: string; open(): KeyValue }> = [
  { name: 'database', open: () => createDatabaseKeyValue(database.db) },
];
if (redis) implementations.push({ name: 'redis', open: () => createRedisKeyValue(redis) });

/** Waits until `check` passes: expiry is observed, never slept through. */
const waitFor = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

/** A key no other test uses. */
const fresh = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

for (const impl of implementations) {
  describe(`KeyValue contract: ${impl.name}`, () => {
    let kv: KeyValue;
    beforeAll(() => {
      kv = impl.open();
      stores.push(kv);
    });

    it('gets what was set, overwrites, deletes, and answers null for a missing key', async () => {
      const key = fresh('plain');
      expect(await kv.get(key)).toBeNull();
      await kv.set(key, 'one');
      expect(await kv.get(key)).toBe('one');
      await kv.set(key, 'two', 10_000);
      expect(await kv.get(key)).toBe('two');
      await kv.delete(key);
      expect(await kv.get(key)).toBeNull();
      await kv.delete(key);
      await kv.ping();
    });

    it('forgets a value once its ttl has passed', async () => {
      const key = fresh('ttl');
      await kv.set(key, 'short', 50);
      await waitFor(async () => expect(await kv.get(key)).toBeNull());
    });

    it('setIfAbsent sets only a missing or expired key', async () => {
      const key = fresh('lock');
      expect(await kv.setIfAbsent(key, 'holder-a', 10_000)).toBe(true);
      expect(await kv.setIfAbsent(key, 'holder-b', 10_000)).toBe(false);
      expect(await kv.get(key)).toBe('holder-a');

      const short = fresh('lock');
      expect(await kv.setIfAbsent(short, 'holder-a', 50)).toBe(true);
      expect(await kv.setIfAbsent(short, 'holder-b', 10_000)).toBe(false);
      await waitFor(async () => expect(await kv.setIfAbsent(short, 'holder-b', 10_000)).toBe(true));
      expect(await kv.get(short)).toBe('holder-b');
    });

    it('extendIfEquals renews only the holder, and the renewed key outlives its first ttl', async () => {
      const key = fresh('lease');
      expect(await kv.extendIfEquals(key, 'holder-a', 10_000)).toBe(false);
      // A witness set with the same first ttl shows when that ttl has passed.
      const witness = fresh('witness');
      await kv.setIfAbsent(key, 'holder-a', 100);
      await kv.setIfAbsent(witness, 'holder-a', 100);
      expect(await kv.extendIfEquals(key, 'holder-b', 10_000)).toBe(false);
      expect(await kv.extendIfEquals(key, 'holder-a', 10_000)).toBe(true);
      await waitFor(async () => expect(await kv.get(witness)).toBeNull());
      expect(await kv.get(key)).toBe('holder-a');

      const lapsed = fresh('lease');
      await kv.setIfAbsent(lapsed, 'holder-a', 50);
      await waitFor(async () => expect(await kv.get(lapsed)).toBeNull());
      expect(await kv.extendIfEquals(lapsed, 'holder-a', 10_000)).toBe(false);
      expect(await kv.get(lapsed)).toBeNull();
    });

    it('deleteIfEquals deletes only for the holder', async () => {
      const key = fresh('release');
      await kv.setIfAbsent(key, 'holder-a', 10_000);
      expect(await kv.deleteIfEquals(key, 'holder-b')).toBe(false);
      expect(await kv.get(key)).toBe('holder-a');
      expect(await kv.deleteIfEquals(key, 'holder-a')).toBe(true);
      expect(await kv.get(key)).toBeNull();
      expect(await kv.deleteIfEquals(key, 'holder-a')).toBe(false);
      expect(await kv.setIfAbsent(key, 'holder-b', 10_000)).toBe(true);
    });

    it('increment counts up and starts over once the ttl has passed', async () => {
      const key = fresh('rate');
      expect(await kv.increment(key, 10_000)).toBe(1);
      expect(await kv.increment(key, 10_000)).toBe(2);
      expect(await kv.increment(key, 10_000)).toBe(3);
      expect(await kv.get(key)).toBe('3');

      const window = fresh('rate');
      expect(await kv.increment(window, 80)).toBe(1);
      expect(await kv.increment(window, 80)).toBe(2);
      await waitFor(async () => expect(await kv.get(window)).toBeNull());
      expect(await kv.increment(window, 10_000)).toBe(1);
    });

    it('increments atomically under concurrent calls', async () => {
      const key = fresh('burst');
      const values = await Promise.all(Array.from({ length: 20 }, () => kv.increment(key, 10_000)));
      expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });
  });
}
