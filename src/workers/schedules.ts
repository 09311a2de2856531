import type { Container } from '../container.js';
import type { RecurringTask } from '../core/scheduler.js';
import { indexUpkeepTask } from './index-upkeep.js';
import { queueRetentionTask } from './queue-retention.js';

/**
 * Every recurring task of the service, in one list (each declared by its
 * owner as a `RecurringTask`): the worker processes
 * (run modes `all` and `worker`) hand them to the scheduler, which runs each
 * time slot once across all replicas (core/scheduler.ts). Each runs at start
 * too, then at every slot boundary.
 */
export function recurringTasks(container: Container): RecurringTask[] {
  return [
    // Each area's own (core/module.ts `recurring`): retention, deadlines, lost runs, token upkeep.
    ...container.modules.flatMap((area) => area.recurring ?? []),
    // The idle close and the lost tasks' and replies' sweep.
    ...container.pipeline.recurring,
    // Enqueues again the job of a kept channel item whose job was lost (Redis emptied, a process died).
    ...container.inbox.recurring,
    // Deletes queue jobs that ended longer ago than their retention (a repeated job id is a no-op until then).
    queueRetentionTask({
      queue: container.queue,
      completedHours: container.config.queueCompletedRetentionHours,
      failedHours: container.config.queueFailedRetentionHours,
      logger: container.logger,
    }),
    // Re-embeds vectors of another embedder version, fills missing keyword terms (bounded per pass).
    indexUpkeepTask({
      db: container.db,
      embeddings: container.llm.embeddings,
      examples: container.intents.repositories.examples,
      classifier: container.intents.classifier,
      logger: container.logger,
    }),
  ];
}

/** Registers every recurring task (once per container) and starts the scheduler's timers. */
export function startSchedules(container: Container): string[] {
  const { scheduler } = container;
  const registered = new Set(scheduler.names());
  for (const task of recurringTasks(container)) {
    if (!registered.has(task.name)) scheduler.every(task.name, task.everyMs, task.run, { runAtStart: true });
  }
  scheduler.start();
  return scheduler.names();
}
