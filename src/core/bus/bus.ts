export type Unsubscribe = () => Promise<void>;

/**
 * Publish/subscribe between processes: WebSocket fan-out and revocations.
 * Implementations: in-process (embedded) and Redis pub/sub.
 * Delivery is at most once; the database row is the durable record.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, message: unknown): Promise<void>;
  /** Starts delivering messages of `channel`; resolves once the subscription is live. */
  subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}
