/**
 * Where channel B keeps its polling state in the key-value store: shared by
 * every process, so the worker that polls writes it and an API replica
 * reads it for GET /chanB/status.
 */
export const CHANB_KEYS = {
  /** The next `getUpdates` offset: the last update enqueued, plus one. */
  offset: 'chanB:offset',
  /** The id of the last update enqueued. */
  lastUpdateId: 'chanB:last-update-id',
  /** The poller lock: the holder's worker id, with a TTL the holder renews. */
  lock: 'chanB:poller-lock',
  /** The holder's state (`polling` or `backing_off`), expiring with its lock. */
  state: 'chanB:poller-state',
  /** A worker waiting for the lock (expires unless renewed). */
  standby: 'chanB:poller-standby',
  /** `{ message, at }` of the last failed platform call. */
  lastError: 'chanB:last-error',
  /** The bot's username from getMe. */
  botUsername: 'chanB:bot-username',
} as const;

/** What the poller of the deployment is doing. */
export type PollingState = 'stopped' | 'polling' | 'standby' | 'backing_off';

export interface HolderState {
  state: 'polling' | 'backing_off';
  workerId: string;
  since: string;
}

export interface LastError {
  message: string;
  at: string;
}

/** Parses a JSON value written by the poller; null when absent or unreadable. */
export function readJson<T>(raw: string | null): T | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
