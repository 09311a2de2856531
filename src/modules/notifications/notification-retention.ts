import type { KeyValue } from '../../core/kv/kv.js';
import type { DriverLogger } from '../../core/logger.js';

/** Key prefix of the per-slot claim; the slot number follows. */
export const NOTIFICATION_RETENTION_KEY = 'notifications-retention';
/** How often the purge runs: once an hour is plenty for a 90-day horizon. */
export const NOTIFICATION_RETENTION_EVERY_MS = 60 * 60_000;

/**
 * Runs the retention purge once per time slot across every worker process.
 * Each worker ticks on a timer; a tick first claims its slot in the shared
 * key-value store (`notifications-retention-<slot>`, set only when absent),
 * so however many workers run, one of them purges per slot, on either
 * driver. The purge is a single idempotent delete, so a slot lost to a crash
 * is simply made up by the next one. The approval deadline sweep is
 * scheduled the same way, which keeps one scheduling mechanism in the
 * worker processes.
 */
export function createNotificationRetention(deps: {
  kv: KeyValue;
  purge: () => Promise<number>;
  logger: DriverLogger;
  everyMs?: number;
}) {
  const everyMs = deps.everyMs ?? NOTIFICATION_RETENTION_EVERY_MS;
  let timer: NodeJS.Timeout | null = null;

  /** The claim key of the slot holding `now`. */
  const slotKey = (now: number) => `${NOTIFICATION_RETENTION_KEY}-${Math.floor(now / everyMs)}`;

  /**
   * Purges unless another process claimed `now`'s slot first; answers the
   * rows deleted, or null when the slot was someone else's.
   */
  async function runSlot(now = Date.now()): Promise<number | null> {
    // The claim outlives its slot, so a late tick of the same slot still sees it.
    if (!(await deps.kv.setIfAbsent(slotKey(now), '1', everyMs * 2))) return null;
    return deps.purge();
  }

  return {
    runSlot,

    /** Ticks now and then every slot, in this (worker) process. */
    start(): void {
      if (timer) return;
      const tick = () =>
        runSlot().catch((error: unknown) =>
          deps.logger.warn({ err: error }, 'notifications: the retention purge failed'),
        );
      void tick();
      timer = setInterval(tick, everyMs);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type NotificationRetention = ReturnType<typeof createNotificationRetention>;
