import type { Container } from '../container.js';
import type { QueueName } from '../core/queue/queue.js';

/** Queue name → how its jobs are handled. Modules add their entry as they arrive. */
export function queueHandlers(container: Container): Partial<Record<QueueName, () => void>> {
  return {
    ...container.knowledge.jobs,
    // The approval deadline sweep and the notification retention purge tick beside the
    // agent-tasks consumer (one claim per time slot each).
    'agent-tasks': () => {
      container.pipeline.workers.agentTasks();
      container.approvals.sla.start();
      container.notifications.retention.start();
    },
    'memory-extraction': container.pipeline.workers.memoryExtraction,
  };
}

/** Starts every queue consumer of this process (run modes `all` and `worker`); answers the queues started. */
export function startWorkers(container: Container): QueueName[] {
  const started: QueueName[] = [];
  for (const [queue, start] of Object.entries(queueHandlers(container)) as [QueueName, () => void][]) {
    start();
    started.push(queue);
  }
  return started;
}
