import type { QueueDriver } from '../core/queue/queue.js';
import type { ConversationsRepository } from '../modules/conversations/conversations.repository.js';

/** The job (on `agent-tasks`) that closes idle conversations. */
export const CLOSE_IDLE_JOB = 'close-idle-conversations';
/** How often the close is scheduled at most. */
export const CLOSE_IDLE_EVERY_MS = 15 * 60_000;

/**
 * Closes conversations idle for CONVERSATION_IDLE_CLOSE_HOURS, so that the
 * sender's next message opens a new one. The scheduler (core/scheduler.ts,
 * registered in workers/schedules.ts) calls {@link schedule} once per time
 * slot; the close itself runs as a job on `agent-tasks` whose id is derived
 * from the slot, so even a slot scheduled twice closes once (on either
 * queue driver); a failed close is made up by the next slot's.
 */
export function createIdleConversations(deps: {
  conversations: ConversationsRepository;
  queue: QueueDriver;
  idleHours: number;
}) {
  // A whole number of milliseconds: the scheduler's slots are integers.
  const everyMs = Math.max(1000, Math.floor(Math.min(CLOSE_IDLE_EVERY_MS, (deps.idleHours * 3_600_000) / 4)));

  async function schedule(now = Date.now()): Promise<string> {
    const slot = Math.floor(now / everyMs);
    return deps.queue.add(
      'agent-tasks',
      CLOSE_IDLE_JOB,
      {},
      { jobId: `${CLOSE_IDLE_JOB}-${slot}`, attempts: 1 },
    );
  }

  return {
    name: CLOSE_IDLE_JOB,

    /** Closes every open conversation whose last message is older than the idle limit; answers how many. */
    closeIdle(now = new Date()): Promise<number> {
      return deps.conversations.closeIdle(new Date(now.getTime() - deps.idleHours * 3_600_000));
    },

    /** Adds this time slot's close job (a no-op when it exists); answers its job id. */
    schedule,

    /** The slot length: a quarter of the idle limit, at most {@link CLOSE_IDLE_EVERY_MS}. */
    everyMs,
  };
}

export type IdleConversations = ReturnType<typeof createIdleConversations>;
