export type Unsubscribe = () => Promise<void>;

/** One message for {@link Bus.publishAll}. */
export interface BusMessage {
  channel: string;
  message: unknown;
}

/**
 * Publish/subscribe between processes: WebSocket fan-out and revocations.
 * Implementations: in-process (embedded) and Redis pub/sub.
 * Delivery is at most once; the database row is the durable record.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, message: unknown): Promise<void>;
  /**
   * Publishes several messages in the order given, in one round trip where
   * the bus has them (the events of one moment: a task's last steps, its
   * notifications and its end).
   */
  publishAll(messages: ReadonlyArray<BusMessage>): Promise<void>;
  /** Starts delivering messages of `channel`; resolves once the subscription is live. */
  subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}
