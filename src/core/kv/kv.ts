/**
 * A small key-value store for counters, locks and channel tokens.
 * Implementations: a database table (embedded) and Redis.
 */
export interface KeyValue {
  readonly kind: 'database' | 'redis';
  get(key: string): Promise<string | null>;
  /** Sets a value; with `ttlMs` it disappears after that long. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets a value only when the key is absent (or expired); answers whether it did. Used for locks. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Renews the TTL only while the key still holds `value`; answers whether it did (lock renewal). */
  extendIfEquals(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Deletes the key only while it still holds `value` (lock release). */
  deleteIfEquals(key: string, value: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds one and answers the new value; the TTL starts when the key is created. Used for rate limits. */
  increment(key: string, ttlMs: number): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
