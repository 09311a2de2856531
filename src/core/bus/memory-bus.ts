import { type DriverLogger, fallbackLogger } from '../logger.js';
import type { Bus, BusMessage, Unsubscribe } from './bus.js';
import { deliver } from './deliver.js';

/**
 * The bus of embedded mode: in-process only. Delivery is asynchronous (a
 * publisher never runs subscriber code in its own stack) and each message is
 * copied through JSON, so subscribers see what the Redis bus would give them.
 */
export function createMemoryBus(options: { logger?: DriverLogger } = {}): Bus {
  const logger = options.logger ?? fallbackLogger;
  const channels = new Map<string, Set<{ handler: (message: unknown) => void }>>();
  let closed = false;

  function publishOne({ channel, message }: BusMessage): void {
    const subscriptions = channels.get(channel);
    if (!subscriptions || subscriptions.size === 0) return;
    const json = JSON.stringify(message ?? null);
    for (const subscription of subscriptions) {
      queueMicrotask(() => {
        // Unsubscribed after the publish: no delivery, as with Redis.
        if (!channels.get(channel)?.has(subscription)) return;
        deliver(subscription.handler, JSON.parse(json), channel, logger);
      });
    }
  }

  return {
    kind: 'memory',

    async publish(channel, message) {
      if (closed) throw new Error('bus is closed');
      publishOne({ channel, message });
    },

    async publishAll(messages) {
      if (closed) throw new Error('bus is closed');
      for (const message of messages) publishOne(message);
    },

    async subscribe(channel, handler): Promise<Unsubscribe> {
      if (closed) throw new Error('bus is closed');
      // A wrapper per call, so one handler subscribed twice is two subscriptions.
      const subscription = { handler };
      let subscriptions = channels.get(channel);
      if (!subscriptions) {
        subscriptions = new Set();
        channels.set(channel, subscriptions);
      }
      subscriptions.add(subscription);
      return async () => {
        const current = channels.get(channel);
        current?.delete(subscription);
        if (current?.size === 0) channels.delete(channel);
      };
    },

    async close() {
      closed = true;
      channels.clear();
    },
  };
}
