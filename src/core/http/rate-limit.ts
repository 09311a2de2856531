import type { FastifyInstance } from 'fastify';
import { TooManyRequestsError } from '../errors/app-errors.js';
import type { KeyValue } from '../kv/kv.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Requests a minute allowed per client address on this route; unset means unlimited. */
    rateLimitPerMin?: number;
  }
}

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows counted in the key-value store, so every API
 * replica shares the count in distributed mode.
 */
export function registerRateLimit(app: FastifyInstance, kv: KeyValue): void {
  app.addHook('onRequest', async (request, reply) => {
    const max = request.routeOptions.config?.rateLimitPerMin;
    if (!max) return;
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    const key = `ratelimit:${request.method}:${request.routeOptions.url}:${request.ip}:${window}`;
    const count = await kv.increment(key, WINDOW_MS);
    if (count > max) {
      reply.header('retry-after', Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
      throw new TooManyRequestsError(`Too many requests; at most ${max} a minute from one address`);
    }
  });
}
