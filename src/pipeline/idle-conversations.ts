import type { DriverLogger } from '../core/logger.js';
import type { QueueDriver } from '../core/queue/queue.js';
import type { ConversationsRepository } from './conversations.repository.js';

/** The job (on `agent-tasks`) that closes idle conversations. */
export const CLOSE_IDLE_JOB = 'close-idle-conversations';
/** How often the close is scheduled at most. */
export const CLOSE_IDLE_EVERY_MS = 15 * 60_000;

/**
 * Closes conversations idle for CONVERSATION_IDLE_CLOSE_HOURS, so that the
 * sender's next message opens a new one. Every worker process schedules the
 * job on a timer with a job id derived from the time slot, so however many
 * workers run, each slot's job runs once (on either queue driver).
 */
export function createIdleConversations(deps: {
  conversations: ConversationsRepository;
  queue: QueueDriver;
  idleHours: number;
  logger: DriverLogger;
}) {
  const everyMs = Math.min(CLOSE_IDLE_EVERY_MS, (deps.idleHours * 3_600_000) / 4);
  let timer: NodeJS.Timeout | null = null;

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
    /** Closes every open conversation whose last message is older than the idle limit; answers how many. */
    closeIdle(now = new Date()): Promise<number> {
      return deps.conversations.closeIdle(new Date(now.getTime() - deps.idleHours * 3_600_000));
    },

    /** Adds this time slot's close job (a no-op when it exists); answers its job id. */
    schedule,

    /** Schedules now and then every slot, in this (worker) process. */
    start(): void {
      if (timer) return;
      const tick = () =>
        schedule().catch((error: unknown) =>
          deps.logger.warn({ err: error }, 'pipeline: scheduling the idle-conversation close failed'),
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

export type IdleConversations = ReturnType<typeof createIdleConversations>;
