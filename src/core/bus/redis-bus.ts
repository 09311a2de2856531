import { Redis } from 'ioredis';
import { type DriverLogger, fallbackLogger } from '../logger.js';
import type { Bus, Unsubscribe } from './bus.js';
import { deliver } from './deliver.js';

interface Subscription {
  handler: (message: unknown) => void;
}

export interface RedisBusOptions {
  url: string;
  /** Every channel is published as `${prefix}:${channel}`. */
  prefix: string;
  logger?: DriverLogger;
}

/**
 * The bus of distributed mode, on Redis pub/sub: one connection publishes,
 * one (in subscriber mode) listens. Messages travel as JSON. ioredis
 * re-subscribes by itself after a reconnect; messages sent meanwhile are lost,
 * which the at-most-once contract allows.
 */
export function createRedisBus(options: RedisBusOptions): Bus {
  const logger = options.logger ?? fallbackLogger;
  const onRedisError = (error: unknown) => logger.warn({ err: error }, 'redis bus: connection error');
  const publisher = new Redis(options.url);
  // Connected by hand, and SUBSCRIBE sent only once the handshake is over: ioredis 5.8+ can
  // interleave its handshake (CLIENT SETINFO, the INFO ready check) with a SUBSCRIBE sent while
  // connecting, and the connection then refuses the handshake ("Connection in subscriber mode").
  const subscriber = new Redis(options.url, { lazyConnect: true });
  let subscriberReady: Promise<void> | undefined;
  const whenSubscriberReady = () => {
    subscriberReady ??= subscriber.connect();
    return subscriberReady;
  };
  publisher.on('error', onRedisError);
  subscriber.on('error', onRedisError);
  const full = (channel: string) => `${options.prefix}:${channel}`;
  /**
   * Subscriptions by full channel name (a wrapper per call, so one handler may
   * subscribe twice) and the SUBSCRIBE that made the channel live.
   */
  const channels = new Map<string, { subscriptions: Set<Subscription>; live: Promise<unknown> }>();
  let closed = false;

  subscriber.on('message', (channel: string, text: string) => {
    const subscriptions = channels.get(channel)?.subscriptions;
    if (!subscriptions) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      logger.warn({ err: error, channel }, 'redis bus: dropped a message that is not JSON');
      return;
    }
    for (const subscription of [...subscriptions]) deliver(subscription.handler, message, channel, logger);
  });

  return {
    kind: 'redis',

    async publish(channel, message) {
      if (closed) throw new Error('bus is closed');
      await publisher.publish(full(channel), JSON.stringify(message ?? null));
    },

    async publishAll(messages) {
      if (closed) throw new Error('bus is closed');
      if (messages.length === 0) return;
      // One write and one read on the connection instead of one of each per message; a
      // pipeline keeps the order, and each PUBLISH still succeeds or fails alone.
      const pipeline = publisher.pipeline();
      for (const { channel, message } of messages)
        pipeline.publish(full(channel), JSON.stringify(message ?? null));
      const failed = (await pipeline.exec())?.find(([error]) => error);
      if (failed) throw failed[0];
    },

    async subscribe(channel, handler): Promise<Unsubscribe> {
      if (closed) throw new Error('bus is closed');
      const name = full(channel);
      const subscription: Subscription = { handler };
      // The map changes before any await, and one connection keeps SUBSCRIBE and UNSUBSCRIBE
      // in call order, so interleaved subscribe and unsubscribe calls end in the right state.
      let entry = channels.get(name);
      if (!entry) {
        entry = {
          subscriptions: new Set(),
          live: whenSubscriberReady().then(() => subscriber.subscribe(name)),
        };
        channels.set(name, entry);
      }
      entry.subscriptions.add(subscription);
      const unsubscribe = async () => {
        const current = channels.get(name);
        if (!current?.subscriptions.delete(subscription) || current.subscriptions.size > 0) return;
        channels.delete(name);
        if (!closed) await subscriber.unsubscribe(name);
      };
      try {
        await entry.live;
      } catch (error) {
        await unsubscribe().catch(() => undefined);
        throw error;
      }
      return unsubscribe;
    },

    async close() {
      if (closed) return;
      closed = true;
      channels.clear();
      await Promise.all(
        [publisher, subscriber].map((client) => client.quit().catch(() => client.disconnect())),
      );
    },
  };
}
