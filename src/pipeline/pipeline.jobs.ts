import type { DriverLogger } from '../core/logger.js';
import type { Job, QueueDriver } from '../core/queue/queue.js';
import type { ProfileMemoryService } from '../modules/employee-profiles/memory.service.js';
import { CLOSE_IDLE_JOB, type IdleConversations } from './idle-conversations.js';
import { taskJobId } from './inbound.service.js';
import type { ConversationOrder } from './ordering.js';
import type { Runner } from './runner.js';

/** Payload of an `agent-tasks` run job: the task id, and how often it already waited for its turn. */
export interface AgentTaskJobData {
  taskId: string;
  waits?: number;
}

/** Payload of a `memory-extraction` job. */
export interface MemoryJobData {
  taskId: string;
}

/** Delay before a waiting task looks again: doubling from 200 ms, at most 2 s. */
export const waitDelayMs = (waits: number) => Math.min(2000, 200 * 2 ** Math.min(waits, 4));

/**
 * How many times a task waits for an earlier task of its conversation
 * before it runs regardless (the earlier one is then taken as lost): long
 * enough for an earlier task to use all four step timeouts.
 */
export const maxWaits = (timeoutMs: number) => Math.ceil((4 * timeoutMs + 60_000) / 2000) + 5;

export interface PipelineWorkerDeps {
  queue: QueueDriver;
  runner: Runner;
  order: ConversationOrder;
  idle: IdleConversations;
  memory: ProfileMemoryService;
  logger: DriverLogger;
  /** AGENT_TASK_CONCURRENCY: tasks in flight, most of them waiting on the model. */
  concurrency: number;
  timeoutMs: number;
}

/**
 * Consumes `agent-tasks`, including the idle-close jobs the scheduler adds. A
 * run job whose task must wait for an earlier one of its conversation is
 * not retried (that would use up its tries): it adds a follow-up job,
 * delayed, whose id counts the waits. A job that throws (the database or
 * queue failed) is retried by the queue; the runner resumes the task
 * safely. When the last try fails, or the job's process died with it more
 * than JOB_MAX_STALLS times, the task ends `failed`.
 */
export function startAgentTaskWorker(deps: PipelineWorkerDeps): void {
  const { queue, runner, order, idle, logger } = deps;

  async function runTask(job: Job<AgentTaskJobData>): Promise<string> {
    const { taskId } = job.data;
    const waits = job.data.waits ?? 0;
    const ignoreEarlier = waits >= maxWaits(deps.timeoutMs);
    if (ignoreEarlier)
      logger.warn({ taskId, waits }, 'pipeline: running a task although an earlier one is unfinished');
    const outcome = await order.run(taskId, (snapshot) => runner.run(taskId, snapshot), { ignoreEarlier });
    // A task's job finds it finished only when it runs again (a retry after its worker stopped).
    if (outcome === 'finished') await runner.afterFinished(taskId);
    if (outcome === 'wait') {
      await queue.add(
        'agent-tasks',
        'run',
        { taskId, waits: waits + 1 },
        { jobId: `${taskJobId(taskId)}-${waits + 1}`, delayMs: waitDelayMs(waits) },
      );
    }
    return outcome;
  }

  queue.process<AgentTaskJobData>(
    'agent-tasks',
    (job) => (job.name === CLOSE_IDLE_JOB ? idle.closeIdle() : runTask(job)),
    {
      concurrency: deps.concurrency,
      onFailed: (job, error) =>
        job.name === CLOSE_IDLE_JOB ? undefined : runner.failAfterRetries(job.data.taskId, error),
    },
  );
}

/**
 * Consumes `memory-extraction`: refreshes the sender's profile after a task
 * (recomputed, so replays are harmless). As many at once as agent tasks
 * (AGENT_TASK_CONCURRENCY), so that it keeps up with them: one at a time, it
 * fell behind under load and its queue grew without end. The jobs running
 * at once are written together (group commit, at most 64 a batch), so their
 * number sets the batch size, not the database's load. Two jobs of one
 * sender write optimistically, over the profile version they read
 * (memory.service.ts).
 */
export function startMemoryWorker(deps: Pick<PipelineWorkerDeps, 'queue' | 'memory' | 'concurrency'>): void {
  deps.queue.process<MemoryJobData>(
    'memory-extraction',
    (job) => deps.memory.extractAfterTask(job.data.taskId),
    {
      concurrency: deps.concurrency,
    },
  );
}
