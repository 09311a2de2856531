import type { KeyValue } from '../../core/kv/kv.js';
import { claimSlot } from '../../core/scheduler.js';

/** The purge's name on the scheduler (part of its slot claim key). */
export const NOTIFICATION_RETENTION_KEY = 'notifications-retention';
/** How often the purge runs: once an hour is plenty for a 90-day horizon. */
export const NOTIFICATION_RETENTION_EVERY_MS = 60 * 60_000;

/**
 * The retention purge as a recurring task of the scheduler (core/scheduler.ts,
 * registered in workers/schedules.ts): once per time slot across every
 * worker process, the slot claimed in the shared key-value store. The purge
 * is a single idempotent delete, so a slot lost to a crash is simply made up
 * by the next one.
 */
export function createNotificationRetention(deps: {
  kv: KeyValue;
  purge: () => Promise<number>;
  everyMs?: number;
}) {
  const everyMs = deps.everyMs ?? NOTIFICATION_RETENTION_EVERY_MS;

  return {
    name: NOTIFICATION_RETENTION_KEY,
    everyMs,
    /** The scheduled task: deletes what is past retention; answers how many rows. */
    purge: deps.purge,

    /**
     * Purges unless another process claimed `now`'s slot first (the same
     * claim the scheduler takes); answers the rows deleted, or null when the
     * slot was someone else's.
     */
    async runSlot(now = Date.now()): Promise<number | null> {
      if (!(await claimSlot(deps.kv, NOTIFICATION_RETENTION_KEY, everyMs, now))) return null;
      return deps.purge();
    },
  };
}

export type NotificationRetention = ReturnType<typeof createNotificationRetention>;
