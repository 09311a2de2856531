import { Redis } from 'ioredis';
import type { KeyValue } from './kv.js';

export interface RedisKeyValueOptions {
  url: string;
  /** Every key is stored as `${prefix}:${key}`. */
  prefix: string;
}

// Compare-and-act steps run as Lua so the check and the change are one atomic step.
const EXTEND_IF_EQUALS = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const DELETE_IF_EQUALS = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1]) else return 0 end`;
// The TTL is set only when INCR created the key: a fixed window, as the database driver does.
const INCREMENT_WITH_TTL = `local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return value`;

interface ScriptCommands {
  kvExtendIfEquals(key: string, value: string, ttlMs: number): Promise<number>;
  kvDeleteIfEquals(key: string, value: string): Promise<number>;
  kvIncrement(key: string, ttlMs: number): Promise<number>;
}

/**
 * The key-value store of distributed mode, on Redis. Locks use SET NX PX and
 * Lua scripts (loaded once, run by their hash), so a lock is only renewed or
 * released by its holder.
 */
export function createRedisKeyValue(options: RedisKeyValueOptions): KeyValue {
  const redis = new Redis(options.url);
  // ioredis reconnects by itself; without a listener its errors would be printed as unhandled.
  redis.on('error', () => undefined);
  redis.defineCommand('kvExtendIfEquals', { numberOfKeys: 1, lua: EXTEND_IF_EQUALS });
  redis.defineCommand('kvDeleteIfEquals', { numberOfKeys: 1, lua: DELETE_IF_EQUALS });
  redis.defineCommand('kvIncrement', { numberOfKeys: 1, lua: INCREMENT_WITH_TTL });
  const scripts = redis as unknown as ScriptCommands;
  const full = (key: string) => `${options.prefix}:${key}`;
  const ms = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs));

  return {
    kind: 'redis',

    get(key) {
      return redis.get(full(key));
    },

    async set(key, value, ttlMs) {
      if (ttlMs === undefined) await redis.set(full(key), value);
      else await redis.set(full(key), value, 'PX', ms(ttlMs));
    },

    async setIfAbsent(key, value, ttlMs) {
      return (await redis.set(full(key), value, 'PX', ms(ttlMs), 'NX')) === 'OK';
    },

    async extendIfEquals(key, value, ttlMs) {
      return (await scripts.kvExtendIfEquals(full(key), value, ms(ttlMs))) === 1;
    },

    async deleteIfEquals(key, value) {
      return (await scripts.kvDeleteIfEquals(full(key), value)) === 1;
    },

    async delete(key) {
      await redis.del(full(key));
    },

    increment(key, ttlMs) {
      return scripts.kvIncrement(full(key), ms(ttlMs));
    },

    async ping() {
      await redis.ping();
    },

    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
