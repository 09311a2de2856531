import { ValidationError } from '../../core/errors/app-errors.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import type { ChanBIntake } from './inbound.service.js';
import type { PollerLogger } from './poller.js';
import type { ChanBInboundItem } from './updates.js';

/**
 * One at a time per process: a sender's quick messages are then stored in the
 * order the platform numbered them (each job is a few queries and an enqueue).
 */
const CONCURRENCY = 1;

/**
 * Consumes `chanB-inbound` (one job per update, id `upd-<update_id>`, the
 * parsed item as payload). Input the pipeline refuses is logged and dropped
 * (repeating cannot fix it); anything else that throws is retried by the
 * queue.
 */
export function startChanBInboundWorker(deps: {
  queue: QueueDriver;
  intake: ChanBIntake;
  logger: PollerLogger;
}): void {
  const { queue, intake, logger } = deps;
  queue.process<ChanBInboundItem>(
    'chanB-inbound',
    async (job) => {
      try {
        return await intake.handle(job.data);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        logger.warn(
          { jobId: job.id, details: error.details },
          'chanB: an inbound message was refused; dropped',
        );
        return 'refused';
      }
    },
    {
      concurrency: CONCURRENCY,
      onFailed: (job, error) => {
        logger.warn({ jobId: job.id, err: error }, 'chanB: an inbound job failed its last try');
      },
    },
  );
}
