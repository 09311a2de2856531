import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Update } from 'grammy/types';
import type { KeyValue } from '../../core/kv/kv.js';
import type { ChannelInbox, InboxEntry } from '../inbox/inbox.js';
import { type BotApi, botFailure } from './bot-api.js';
import { CHANB_KEYS, type HolderState } from './poller-state.js';
import { parseUpdate } from './updates.js';

export interface PollerLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface PollerOptions {
  api: BotApi;
  kv: KeyValue;
  /** Keeps each update in the database before the offset moves past it, then enqueues it. */
  inbox: Pick<ChannelInbox, 'accept'>;
  logger: PollerLogger;
  /** CHANB_POLL_TIMEOUT_SEC: how long one `getUpdates` waits for an update. */
  pollTimeoutSec: number;
  /** CHANB_LOCK_TTL_MS: a holder that stops renewing loses the lock after this long. */
  lockTtlMs: number;
  /** CHANB_LOCK_RETRY_MS: how often a waiting worker tries the lock; also the first back-off. */
  retryMs: number;
  /** This process, as the lock and the status name it; `hostname-pid-random` unless given. */
  workerId?: string;
}

/** The longest wait between two tries after repeated failures. */
const MAX_BACKOFF_MS = 60_000;

/** The job id of an update on `chanB-inbound`: deterministic, so enqueuing it twice is a no-op. */
export const updateJobId = (updateId: number) => `upd-${updateId}`;

/** `hostname-pid-random`: unique per process, readable in the status. */
export function newWorkerId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * The channel B long-poller. Only one runs in a deployment: each worker
 * process tries a lock in the key-value store (`setIfAbsent` with a TTL); the
 * holder renews it (`extendIfEquals`) every third of the TTL and polls, the
 * others try again every `retryMs`, so when the holder dies another takes
 * over within the TTL. The holder calls `deleteWebhook` once, then
 * `getUpdates` (long polling, `allowed_updates`: messages, callback queries, reactions) from the
 * stored offset; the updates of each answer are kept in the inbox (the
 * database) and enqueued on `chanB-inbound` as `upd-<update_id>` BEFORE the
 * offset moves past them, so a crash between the two repeats them (kept
 * once, enqueued once) and never loses an update, and a lost queue job is
 * enqueued again from the inbox. A failed call
 * (a 409 Conflict from another poller or a webhook, a 5xx, the network) is
 * recorded as the last error and waited out with a growing delay.
 */
export function createChanBPoller(options: PollerOptions) {
  const { api, kv, inbox, logger, lockTtlMs, retryMs } = options;
  const workerId = options.workerId ?? newWorkerId();
  let running = false;
  let holding = false;
  let loop: Promise<void> | null = null;
  let renewTimer: NodeJS.Timeout | null = null;
  /** Aborts the wait in progress (a long poll or a sleep): on stop, or when the lock is lost. */
  let current = new AbortController();
  let state: HolderState | null = null;
  /** deleteWebhook and getMe done since the lock was taken. */
  let prepared = false;

  async function writeState(next: HolderState['state']): Promise<void> {
    if (state?.state !== next) state = { state: next, workerId, since: new Date().toISOString() };
    await kv.set(CHANB_KEYS.state, JSON.stringify(state), lockTtlMs);
  }

  async function recordError(message: string): Promise<void> {
    await kv.set(CHANB_KEYS.lastError, JSON.stringify({ message, at: new Date().toISOString() }));
  }

  function stopRenewal(): void {
    if (renewTimer) clearInterval(renewTimer);
    renewTimer = null;
  }

  /** Renews the lock (and the state beside it); on losing it, stops polling at once. */
  function startRenewal(): void {
    stopRenewal();
    renewTimer = setInterval(
      () => {
        void (async () => {
          const kept = await kv.extendIfEquals(CHANB_KEYS.lock, workerId, lockTtlMs);
          if (!kept && holding) {
            holding = false;
            stopRenewal();
            logger.warn({ workerId }, 'chanB: the poller lock was lost; this worker stops polling');
            current.abort();
            return;
          }
          if (state) await kv.set(CHANB_KEYS.state, JSON.stringify(state), lockTtlMs);
        })().catch((error: unknown) =>
          logger.warn({ err: error, workerId }, 'chanB: renewing the poller lock failed'),
        );
      },
      Math.max(50, Math.floor(lockTtlMs / 3)),
    );
    renewTimer.unref();
  }

  /** Waits, unless stopped or the lock is lost meanwhile. */
  async function pause(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: current.signal }).catch(() => undefined);
  }

  async function acquire(): Promise<boolean> {
    if (!(await kv.setIfAbsent(CHANB_KEYS.lock, workerId, lockTtlMs))) {
      await kv.set(CHANB_KEYS.standby, workerId, Math.max(retryMs * 3, 1000));
      return false;
    }
    holding = true;
    startRenewal();
    await kv.deleteIfEquals(CHANB_KEYS.standby, workerId);
    prepared = false;
    logger.info({ workerId }, 'chanB: this worker holds the poller lock and polls');
    await writeState('polling');
    return true;
  }

  /** Once per holding: updates cannot be polled while a webhook is set (pending updates are kept). */
  async function prepare(): Promise<void> {
    await api.deleteWebhook({ drop_pending_updates: false }, botSignal(current));
    const me = await api.getMe(botSignal(current));
    if (me.username) await kv.set(CHANB_KEYS.botUsername, me.username);
    prepared = true;
  }

  /** Keeps and enqueues the updates, then moves the offset past them (in that order: see above). */
  async function take(updates: readonly Update[]): Promise<void> {
    const last = updates.at(-1);
    if (!last) return;
    const entries: InboxEntry[] = [];
    for (const update of updates) {
      const item = parseUpdate(update);
      if (item) {
        entries.push({
          queue: 'chanB-inbound',
          jobName: 'update',
          jobId: updateJobId(update.update_id),
          sender: item.userId,
          platformOrder: update.update_id,
          payload: item,
          options: {},
        });
      }
    }
    await inbox.accept(entries);
    await kv.set(CHANB_KEYS.offset, String(last.update_id + 1));
    await kv.set(CHANB_KEYS.lastUpdateId, String(last.update_id));
  }

  async function pollOnce(): Promise<void> {
    const stored = Number(await kv.get(CHANB_KEYS.offset));
    const updates = await api.getUpdates(
      {
        ...(Number.isSafeInteger(stored) && stored > 0 ? { offset: stored } : {}),
        timeout: options.pollTimeoutSec,
        // Rating buttons answer with callback queries, reactions come as message_reaction (modules/feedback).
        allowed_updates: ['message', 'callback_query', 'message_reaction'],
      },
      botSignal(current),
    );
    // Taken to the end even when stopping meanwhile: they are kept before the offset moves.
    await take(updates);
  }

  async function run(): Promise<void> {
    let backoffMs = 0;
    while (running) {
      if (current.signal.aborted) current = new AbortController();
      try {
        if (!holding && !(await acquire())) {
          await pause(retryMs);
          continue;
        }
        if (!prepared) await prepare();
        await pollOnce();
        if (backoffMs > 0) {
          backoffMs = 0;
          await writeState('polling');
        }
      } catch (error) {
        // Stopping, or the lock went to another worker: not a failure of the platform.
        if (!running || current.signal.aborted) continue;
        const failure = describe(error);
        backoffMs = failure.retryAfterMs ?? Math.min(MAX_BACKOFF_MS, backoffMs > 0 ? backoffMs * 2 : retryMs);
        logger.warn({ workerId, error: failure.message, backoffMs }, 'chanB: polling failed; backing off');
        await Promise.all([recordError(failure.message), holding ? writeState('backing_off') : null]).catch(
          (kvError: unknown) => logger.warn({ err: kvError }, 'chanB: recording the polling error failed'),
        );
        await pause(backoffMs);
      }
    }
  }

  return {
    workerId,
    /** Whether this process holds the lock (and polls). */
    isHolder: () => holding,

    /** Starts trying the lock and, once held, polling. Idempotent. */
    start(): void {
      if (running) return;
      running = true;
      current = new AbortController();
      loop = run();
    },

    /**
     * Stops polling: aborts the long poll, lets the updates already received
     * be enqueued, then releases the lock (and the state) so another worker
     * takes over at its next try instead of after the TTL.
     */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      current.abort();
      await loop;
      loop = null;
      stopRenewal();
      try {
        if (holding && (await kv.deleteIfEquals(CHANB_KEYS.lock, workerId)))
          await kv.delete(CHANB_KEYS.state);
        await kv.deleteIfEquals(CHANB_KEYS.standby, workerId);
      } catch (error) {
        logger.warn(
          { err: error, workerId },
          'chanB: releasing the poller lock failed; it expires with its TTL',
        );
      }
      holding = false;
      state = null;
    },
  };
}

export type ChanBPoller = ReturnType<typeof createChanBPoller>;

/** The standard signal as grammY's Node typings name it (they declare the abort-controller package's type). */
function botSignal(controller: AbortController): Parameters<BotApi['getMe']>[0] {
  return controller.signal as unknown as Parameters<BotApi['getMe']>[0];
}

/** A failure as the status shows it: the platform's code and description, never the token or a payload. */
function describe(error: unknown): { message: string; retryAfterMs: number | null } {
  try {
    const failure = botFailure(error);
    const code = failure.code === null ? 'network error' : String(failure.code);
    return { message: `${code}: ${failure.description}`.slice(0, 500), retryAfterMs: failure.retryAfterMs };
  } catch {
    // Our own store or queue failed: its message carries no secret of the bot.
    return { message: String((error as Error)?.message ?? error).slice(0, 500), retryAfterMs: null };
  }
}
