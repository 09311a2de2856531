/** A pipeline step ran past AGENT_TASK_TIMEOUT_MS. */
export class StepTimeoutError extends Error {
  constructor(
    readonly stepName: string,
    readonly timeoutMs: number,
  ) {
    super(`Step ${stepName} did not finish within ${timeoutMs} ms`);
    this.name = new.target.name;
  }
}

/**
 * Runs `work` with a signal that aborts after `timeoutMs`; rejects with
 * {@link StepTimeoutError} at that moment even when `work` ignores the
 * signal, so a stuck step never holds the task.
 */
export async function withStepTimeout<T>(
  stepName: string,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new StepTimeoutError(stepName, timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
