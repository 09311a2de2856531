import PQueue from 'p-queue';

/** Which work goes first when both wait: a task's last steps before new tasks' first ones. */
export type WorkPriority = 'finish' | 'start';

const PRIORITY: Record<WorkPriority, number> = { finish: 1, start: 0 };

export interface WorkLimit {
  /** Most pieces of work running at once. */
  readonly concurrency: number;
  /** Pieces of work running now. */
  readonly running: number;
  /** Pieces of work waiting for a place. */
  readonly waiting: number;
  /**
   * Runs `work` once fewer than `concurrency` others run, in order of
   * priority, then of arrival. When `signal` aborts, work still waiting
   * leaves the line and work running gives its place back at once; both
   * reject with the signal's reason.
   */
  run<T>(work: () => Promise<T>, options?: { priority?: WorkPriority; signal?: AbortSignal }): Promise<T>;
}

/**
 * A per-process limit on pieces of work at once (a semaphore with two
 * priorities, on p-queue). The pipeline keeps two apart: model calls in
 * flight (LLM_MAX_CONCURRENCY), which wait on the network, and its CPU-bound
 * steps (AGENT_TASK_CPU_CONCURRENCY), so many tasks can wait on the model
 * while few compute at once.
 */
export function createWorkLimit(concurrency: number): WorkLimit {
  const queue = new PQueue({ concurrency: Math.max(1, Math.floor(concurrency)) });
  return {
    concurrency: queue.concurrency,
    get running() {
      return queue.pending;
    },
    get waiting() {
      return queue.size;
    },
    run(work, options = {}) {
      return queue.add(work, {
        priority: PRIORITY[options.priority ?? 'start'],
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
  };
}
