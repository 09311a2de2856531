import type { DriverLogger } from '../logger.js';
import type { Bus } from './bus.js';
import { createMemoryBus } from './memory-bus.js';
import { createRedisBus } from './redis-bus.js';

export type { Bus, Unsubscribe } from './bus.js';

/**
 * The bus the configuration asks for: Redis pub/sub when REDIS_URL is set
 * (every API replica hears every publish), in-process otherwise.
 */
export function createBus(
  config: { redisUrl: string | null; redisPrefix: string },
  logger?: DriverLogger,
): Bus {
  if (config.redisUrl) return createRedisBus({ url: config.redisUrl, prefix: config.redisPrefix, logger });
  return createMemoryBus({ logger });
}
