import type { JobHandler, QueueDriver, QueueName, WorkerOptions } from './queue.js';

/** Told of each job run: its queue, whether the try completed or threw, and how long it ran. */
export type JobObserver = (queue: QueueName, outcome: 'completed' | 'error', seconds: number) => void;

/**
 * Times every handler the driver runs from now on, whichever driver it is:
 * `process` is replaced on the driver itself, so callers keep the object
 * (and its driver-specific members) they already hold.
 */
export function observeJobs<D extends QueueDriver>(driver: D, observe: JobObserver): D {
  const process = driver.process.bind(driver);
  return Object.assign(driver, {
    process<T>(queue: QueueName, handler: JobHandler<T>, options?: WorkerOptions<T>): void {
      process<T>(
        queue,
        async (job) => {
          const started = performance.now();
          try {
            const result = await handler(job);
            observe(queue, 'completed', (performance.now() - started) / 1000);
            return result;
          } catch (error) {
            observe(queue, 'error', (performance.now() - started) / 1000);
            throw error;
          }
        },
        options,
      );
    },
  });
}
