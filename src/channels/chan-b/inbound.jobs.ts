import { ValidationError } from '../../core/errors/app-errors.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import type { ChannelInbox } from '../inbox/inbox.js';
import type { ChanBIntake } from './inbound.service.js';
import type { PollerLogger } from './poller.js';
import type { ChanBInboundItem } from './updates.js';

/**
 * Updates handled at once per process: each is a few queries and an
 * enqueue; one sender's updates still go in the platform's order (the
 * inbox's turn, below).
 */
const CONCURRENCY = 4;

/**
 * Consumes `chanB-inbound` (one job per update, id `upd-<update_id>`, the
 * parsed item as payload). A sender's update waits until their earlier ones
 * (by update id) are taken, in any process, so their messages are stored in
 * the order they were sent. Input the pipeline refuses is logged and dropped
 * (repeating cannot fix it); anything else that throws is retried by the
 * queue.
 */
export function startChanBInboundWorker(deps: {
  queue: QueueDriver;
  intake: ChanBIntake;
  inbox: Pick<ChannelInbox, 'takeInOrder' | 'markTaken'>;
  logger: PollerLogger;
}): void {
  const { queue, intake, inbox, logger } = deps;
  queue.process<ChanBInboundItem>(
    'chanB-inbound',
    async (job) => {
      try {
        return await inbox.takeInOrder('chanB-inbound', job.id, () => intake.handle(job.data));
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        logger.warn(
          { jobId: job.id, details: error.details },
          'chanB: an inbound message was refused; dropped',
        );
        await inbox.markTaken('chanB-inbound', job.id);
        return 'refused';
      }
    },
    {
      concurrency: CONCURRENCY,
      onFailed: async (job, error) => {
        logger.warn({ jobId: job.id, err: error }, 'chanB: an inbound job failed its last try');
        await inbox.markTaken('chanB-inbound', job.id);
      },
    },
  );
}
