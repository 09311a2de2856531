import type { Container } from '../container.js';
import type { RecurringTask } from '../core/scheduler.js';
import { indexUpkeepTask } from './index-upkeep.js';
import { queueRetentionTask } from './queue-retention.js';

/**
 * Every recurring task of the service, in one list: the worker processes
 * (run modes `all` and `worker`) hand them to the scheduler, which runs each
 * time slot once across all replicas (core/scheduler.ts). Each runs at start
 * too, then at every slot boundary.
 */
export function recurringTasks(container: Container): RecurringTask[] {
  const { notifications, approvals, pipeline, chanA } = container;
  return [
    {
      name: notifications.retention.name,
      everyMs: notifications.retention.everyMs,
      run: () => notifications.retention.purge(),
    },
    { name: approvals.sla.name, everyMs: approvals.sla.everyMs, run: () => approvals.sla.escalateOverdue() },
    // Adds the slot's close job on agent-tasks (its id dedupes the slot once more).
    {
      name: pipeline.idle.name,
      everyMs: pipeline.idle.everyMs,
      run: (slotStart) => pipeline.idle.schedule(slotStart),
    },
    // Adds again the job of a task or reply left queued without one (its process stopped after the commit).
    {
      name: pipeline.lostJobs.name,
      everyMs: pipeline.lostJobs.everyMs,
      run: (slotStart) => pipeline.lostJobs.requeue(slotStart),
    },
    // Adds again the job of an evaluation run left queued or running without one.
    {
      name: container.evaluation.lostRuns.name,
      everyMs: container.evaluation.lostRuns.everyMs,
      run: (slotStart) => container.evaluation.lostRuns.requeue(slotStart),
    },
    // Enqueues again the job of a kept channel item whose job was lost (Redis emptied, a process died).
    {
      name: container.inbox.name,
      everyMs: container.inbox.everyMs,
      run: () => container.inbox.sweep(),
    },
    // Deletes queue jobs that ended longer ago than their retention (a repeated job id is a no-op until then).
    queueRetentionTask({
      queue: container.queue,
      completedHours: container.config.queueCompletedRetentionHours,
      failedHours: container.config.queueFailedRetentionHours,
      logger: container.logger,
    }),
    // Stores CHANA_ACCESS_TOKEN when no token is stored; exchanges one within 7 days of expiry.
    chanA.sending.tokenCheck,
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
