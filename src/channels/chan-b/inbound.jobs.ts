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
 * parsed item as payload). A sender's earlier updates (by update id) are
 * taken first, in any process, or here (inbox.ts, `takeInOrder`), so their
 * messages are stored in the order they were sent. Input the pipeline refuses is logged and dropped
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
  /** The intake of one update; input the pipeline refuses is logged and dropped (repeating cannot fix it). */
  const intakeOrDrop = async (item: ChanBInboundItem, jobId: string) => {
    try {
      return await intake.handle(item);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      logger.warn({ jobId, details: error.details }, 'chanB: an inbound message was refused; dropped');
      return 'refused' as const;
    }
  };
  queue.process<ChanBInboundItem>(
    'chanB-inbound',
    (job) =>
      inbox.takeInOrder(
        'chanB-inbound',
        job.id,
        () => intakeOrDrop(job.data, job.id),
        (payload, jobId) => intakeOrDrop(payload as ChanBInboundItem, jobId),
      ),
    {
      concurrency: CONCURRENCY,
      onFailed: async (job, error) => {
        logger.warn({ jobId: job.id, err: error }, 'chanB: an inbound job failed its last try');
        await inbox.markTaken('chanB-inbound', job.id);
      },
    },
  );
}
