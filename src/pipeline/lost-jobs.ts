import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../core/db/client.js';
import type { QueueDriver } from '../core/queue/queue.js';
import { addRunJob } from './inbound.service.js';
import { pendingReplyJobs, type ReplyRouting, SENT_CHANNELS } from './routing.js';

/** The re-enqueue's name on the scheduler (part of its slot claim key). */
export const REQUEUE_LOST_JOBS_NAME = 'requeue-lost-jobs';
/**
 * How often it runs: a job lost with Redis or a process is added again
 * within seconds (at most this period plus {@link REQUEUE_LOST_JOBS_AGE_MS}).
 */
export const REQUEUE_LOST_JOBS_EVERY_MS = 5000;
/** How long a task or reply stays `queued` before it is looked at: its own enqueue is normally on its way. */
export const REQUEUE_LOST_JOBS_AGE_MS = 5000;
/** Tasks, then replies, looked at per run, oldest first; the rest wait for the next run. */
const REQUEUE_BATCH = 500;

/**
 * Jobs lost with their process: every task and every outbound reply is
 * committed first and its job added after the commit (by the inbound
 * service, the pipeline's decision, an approval, a bot answer), and a
 * process may stop in between, and Redis may lose the job. Every 5 s (a
 * recurring task of the scheduler, workers/schedules.ts) the tasks `queued`
 * (or `running`, counted from their start) and the replies `queued` for more
 * than 5 s get their job added again under its usual id,
 * `agent-task-<taskId>` or `outbound-<messageId>`: a no-op where the job
 * exists (jobs are kept a week after they end, so a task waiting for its turn or a
 * reply waiting out a rate limit is left as it is), so only lost ones run.
 * Replies count only on a channel with a transport (an `email` reply has
 * none to wait for). A running task's new job waits for the conversation's
 * lock while its first run still holds it, then finds the task finished or
 * resumes it. The runner starts a task only once, and the outbound
 * worker sends a reply only while it is `queued`. A task whose run job
 * failed for good but which is still `queued` (ending it failed too) is
 * ended `failed` with the job's reason.
 */
export function createLostJobs(deps: {
  db: Database;
  queue: QueueDriver;
  routing: Pick<ReplyRouting, 'enqueue'>;
  /** Ends an unfinished task `failed` with the reason (the runner's `failAfterRetries`). */
  failTask: (taskId: string, error: Error) => Promise<void>;
}) {
  return {
    name: REQUEUE_LOST_JOBS_NAME,
    everyMs: REQUEUE_LOST_JOBS_EVERY_MS,

    /**
     * Adds the job of every task and reply queued since before `now` − `ageMs`
     * (5 s; 0 right after the queue's store came back, when any job may be
     * gone), at most 500 of each; answers how many of each it looked at.
     */
    async requeue(
      now = Date.now(),
      ageMs = REQUEUE_LOST_JOBS_AGE_MS,
    ): Promise<{ tasks: number; replies: number }> {
      const before = new Date(now - ageMs).toISOString();
      // Running tasks too: a task whose job vanished while it ran (Redis emptied under it, the
      // handler then failing against the missing job) would otherwise hold its conversation.
      const tasks = rowsOf<{ id: string; jobId: string }>(
        await deps.db.execute(sql`SELECT id, job_id AS "jobId" FROM agent_tasks
          WHERE (status = 'queued' AND created_at < ${before}::timestamptz)
             OR (status = 'running' AND started_at < ${before}::timestamptz)
          ORDER BY created_at LIMIT ${REQUEUE_BATCH}`),
      );
      for (const task of tasks) {
        // One read of the job decides: missing, it is added again; failed for good while the task is
        // still queued (ending the task failed then too, the database away, say), the task is ended,
        // or its conversation's later messages would wait for it; otherwise it is left as it is.
        const job = await deps.queue.getJob('agent-tasks', task.jobId);
        if (!job) await addRunJob(deps.queue, task);
        else if (job.state === 'failed')
          await deps.failTask(task.id, new Error(job.failedReason ?? 'its job failed'));
      }
      const replies = rowsOf<{ id: string; channel: string; status: string }>(
        await deps.db.execute(sql`SELECT id, channel, status FROM messages
          WHERE direction = 'outbound' AND status = 'queued' AND created_at < ${before}::timestamptz
            AND channel = ANY(${`{${SENT_CHANNELS.join(',')}}`}::text[])
          ORDER BY created_at LIMIT ${REQUEUE_BATCH}`),
      );
      for (const reply of replies) await deps.routing.enqueue(pendingReplyJobs(reply));
      return { tasks: tasks.length, replies: replies.length };
    },
  };
}

export type LostJobs = ReturnType<typeof createLostJobs>;
