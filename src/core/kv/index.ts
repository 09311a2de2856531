import type { Database } from '../db/client.js';
import { createDatabaseKeyValue } from './database-kv.js';
import type { KeyValue } from './kv.js';
import { createRedisKeyValue } from './redis-kv.js';

export type { KeyValue } from './kv.js';

/**
 * The key-value store the configuration asks for: Redis when REDIS_URL is
 * set, the `kv_entries` table otherwise.
 */
export function createKeyValue(
  config: { redisUrl: string | null; redisPrefix: string },
  db: Database,
): KeyValue {
  if (config.redisUrl) return createRedisKeyValue({ url: config.redisUrl, prefix: config.redisPrefix });
  return createDatabaseKeyValue(db);
}
