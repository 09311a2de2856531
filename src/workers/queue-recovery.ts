import type { Container } from '../container.js';

/**
 * When the queue's store comes back after a lost connection (Redis
 * restarted, perhaps empty), enqueues again at once, without the usual
 * age limits, the jobs of every kept channel item and every queued task and
 * reply: the sweeps would find them within seconds anyway, this makes it
 * the moment the connection returns. Every worker process does it (the jobs'
 * ids make a repeat a no-op); a reconnection during a pass is covered by one
 * more pass after it. Answers a function that stops listening.
 */
export function recoverOnReconnect(container: Container): () => void {
  const { queue, inbox, pipeline, logger } = container;
  let running: Promise<void> | null = null;
  let again = false;

  async function pass(): Promise<void> {
    do {
      again = false;
      try {
        const now = Date.now();
        const kept = await inbox.sweep(now, 0);
        const lost = await pipeline.lostJobs.requeue(now, 0);
        logger.info(
          { channelItems: kept.requeued, tasks: lost.tasks, replies: lost.replies },
          'queue recovery: jobs enqueued again after the queue store came back',
        );
      } catch (error) {
        logger.warn({ err: error }, 'queue recovery failed; the sweeps will enqueue the jobs again');
      }
    } while (again);
  }

  return queue.onReconnect(() => {
    if (running) {
      again = true;
      return;
    }
    running = pass().finally(() => {
      running = null;
    });
  });
}
