import type { Container } from '../container.js';
import type { QueueName } from '../core/queue/queue.js';
import { recoverOnReconnect } from './queue-recovery.js';
import { startSchedules } from './schedules.js';

/** Queue name → how its jobs are handled. Modules add their entry as they arrive. */
export function queueHandlers(container: Container): Partial<Record<QueueName, () => void>> {
  return {
    ...container.knowledge.jobs,
    ...container.evaluation.jobs,
    ...container.chanA.jobs,
    ...container.chanB.jobs,
    'agent-tasks': container.pipeline.workers.agentTasks,
    'memory-extraction': container.pipeline.workers.memoryExtraction,
  };
}

/**
 * Starts every queue consumer of this process (run modes `all` and `worker`)
 * the scheduler's recurring tasks (workers/schedules.ts) and the recovery
 * after a lost queue connection (workers/queue-recovery.ts); answers the queues started.
 */
export function startWorkers(container: Container): QueueName[] {
  const started: QueueName[] = [];
  for (const [queue, start] of Object.entries(queueHandlers(container)) as [QueueName, () => void][]) {
    start();
    started.push(queue);
  }
  startSchedules(container);
  recoverOnReconnect(container);
  return started;
}
