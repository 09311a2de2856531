import type { KeyValue } from '../../core/kv/kv.js';
import type { JobCounts, QueueDriver } from '../../core/queue/queue.js';
import type { BotApi } from './bot-api.js';
import { CHANB_KEYS, type HolderState, type LastError, type PollingState, readJson } from './poller-state.js';

export interface ChanBStatus {
  configured: boolean;
  botUsername: string | null;
  polling: PollingState;
  lockHolder: string | null;
  lastUpdateId: number | null;
  lastError: LastError | null;
  queues: { 'chanB-inbound': JobCounts; 'chanB-outbound': JobCounts };
}

/** How long the status waits for getMe when the poller has not stored the username yet. */
const GET_ME_TIMEOUT_MS = 3000;

/**
 * Channel B's status for operators, read from what the elected poller keeps
 * in the key-value store (so any API replica answers for the deployment);
 * never the token.
 */
export function createChanBStatusService(deps: { api: BotApi | null; kv: KeyValue; queue: QueueDriver }) {
  const { api, kv, queue } = deps;
  let cachedUsername: string | null = null;

  /** The bot's username: cached, else stored by the poller, else asked once with getMe (null when that fails). */
  async function botUsername(): Promise<string | null> {
    if (!api) return null;
    if (cachedUsername) return cachedUsername;
    const stored = await kv.get(CHANB_KEYS.botUsername);
    if (stored) {
      cachedUsername = stored;
      return stored;
    }
    try {
      const me = await api.getMe(
        AbortSignal.timeout(GET_ME_TIMEOUT_MS) as unknown as Parameters<BotApi['getMe']>[0],
      );
      cachedUsername = me.username ?? null;
      if (cachedUsername) await kv.set(CHANB_KEYS.botUsername, cachedUsername);
      return cachedUsername;
    } catch {
      // The platform is unreachable or refuses the token: the status says what it can without it.
      return null;
    }
  }

  /** The deployment's poller: the lock holder's state, else a worker waiting for the lock, else none. */
  function pollingOf(holder: HolderState | null, standby: string | null): PollingState {
    if (!api) return 'stopped';
    if (holder) return holder.state;
    return standby ? 'standby' : 'stopped';
  }

  return {
    /**
     * Whether CHANB_BOT_TOKEN is set, the bot's username (getMe, cached),
     * what the poller is doing (`polling`, `backing_off` after a failed
     * call, `standby` while a worker waits for the lock, `stopped` when no
     * worker polls or the channel is not configured), the lock holder's
     * worker id, the last update enqueued, the last failed platform call,
     * and the job counts of both channel B queues. Permission is checked by
     * the route.
     */
    async get(): Promise<ChanBStatus> {
      const [lock, state, standby, lastUpdateId, lastError, inbound, outbound, username] = await Promise.all([
        kv.get(CHANB_KEYS.lock),
        kv.get(CHANB_KEYS.state),
        kv.get(CHANB_KEYS.standby),
        kv.get(CHANB_KEYS.lastUpdateId),
        kv.get(CHANB_KEYS.lastError),
        queue.counts('chanB-inbound'),
        queue.counts('chanB-outbound'),
        botUsername(),
      ]);
      const updateId = lastUpdateId === null ? Number.NaN : Number(lastUpdateId);
      return {
        configured: api !== null,
        botUsername: username,
        polling: pollingOf(readJson<HolderState>(state), standby),
        lockHolder: api ? lock : null,
        lastUpdateId: Number.isSafeInteger(updateId) ? updateId : null,
        lastError: readJson<LastError>(lastError),
        queues: { 'chanB-inbound': inbound, 'chanB-outbound': outbound },
      };
    },
  };
}

export type ChanBStatusService = ReturnType<typeof createChanBStatusService>;
