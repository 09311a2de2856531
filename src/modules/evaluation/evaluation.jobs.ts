import type { QueueDriver } from '../../core/queue/queue.js';
import type { EvaluationRepository } from './evaluation.repository.js';
import type { EvaluationRunner } from './evaluation-runner.js';

export const EVAL_QUEUE = 'namespace-evaluation';

/** The job payload: the run id only; the handler loads the rest. */
export interface EvalJobData {
  runId: string;
}

/** One job per run: adding it again while it exists is a no-op. */
export const evalRunJobId = (runId: string) => `eval-run-${runId}`;

/**
 * Consumes `namespace-evaluation`, one run at a time per process (a run is
 * a long series of retrievals). A job that throws is retried; after the
 * last try (or too many stalls) the run is marked failed with the reason.
 */
export function startEvaluationWorker(queue: QueueDriver, runner: EvaluationRunner): void {
  queue.process<EvalJobData>(EVAL_QUEUE, (job) => runner.run(job.data.runId), {
    concurrency: 1,
    onFailed: (job, error) => runner.failAfterRetries(job.data.runId, error),
  });
}

/** The sweep's name on the scheduler. */
export const LOST_EVAL_RUNS_NAME = 'requeue-lost-eval-runs';
/** How often it looks, and how old an unfinished run must be to be looked at. */
export const LOST_EVAL_RUNS_EVERY_MS = 30_000;
const LOST_EVAL_RUNS_BATCH = 100;

/**
 * Runs whose job vanished: a run row is committed before its job is added,
 * a process may stop in between, and Redis may lose a job. Every 30 s (a
 * recurring task of the worker processes) each run queued or running for
 * more than 30 s gets its job added again under its usual id (a no-op while
 * the job exists; the runner starts a taken-again run over). A run whose job
 * has ended while the run did not (its process died between the two writes)
 * is marked failed.
 */
export function createLostEvalRuns(deps: { evaluation: EvaluationRepository; queue: QueueDriver }) {
  return {
    name: LOST_EVAL_RUNS_NAME,
    everyMs: LOST_EVAL_RUNS_EVERY_MS,
    /** Looks at the unfinished runs created before `now` − `ageMs`; answers how many it looked at. */
    async requeue(now = Date.now(), ageMs = LOST_EVAL_RUNS_EVERY_MS): Promise<number> {
      const runs = await deps.evaluation.unfinishedBefore(new Date(now - ageMs), LOST_EVAL_RUNS_BATCH);
      for (const run of runs) {
        const jobId = evalRunJobId(run.id);
        const job = await deps.queue.getJob(EVAL_QUEUE, jobId);
        if (!job) {
          await deps.queue.add(EVAL_QUEUE, 'evaluate', { runId: run.id }, { jobId });
        } else if (job.state === 'completed' || job.state === 'failed') {
          await deps.evaluation.fail(run.id, job.failedReason ?? 'the run stopped before it finished');
        }
      }
      return runs.length;
    },
  };
}
