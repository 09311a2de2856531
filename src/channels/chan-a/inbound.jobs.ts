import { ValidationError } from '../../core/errors/app-errors.js';
import type { Job, QueueDriver } from '../../core/queue/queue.js';
import type { ChannelInbox } from '../inbox/inbox.js';
import type { DeliveryStatuses } from './delivery-status.js';
import type { ChanAIntake, IntakeLogger } from './inbound.service.js';
import { INBOUND_JOB } from './webhook.service.js';
import type { InboundItem, StatusItem } from './webhook-payload.js';

/** Inbound jobs handled at once per process: most wait on the database; OCR is the slow exception. */
const CONCURRENCY = 4;

export interface ChanAInboundWorkerDeps {
  queue: QueueDriver;
  intake: ChanAIntake;
  statuses: DeliveryStatuses;
  inbox: Pick<ChannelInbox, 'takeInOrder' | 'markTaken'>;
  logger: IntakeLogger;
}

const isLastAttempt = (job: Job) => job.attemptsMade + 1 >= job.maxAttempts;

/**
 * Consumes `chanA-inbound`: `message` jobs go to the intake, `status` jobs
 * (receipts) to the delivery statuses. A receipt whose message is not found,
 * or is still being sent, is retried (the send may not have committed yet),
 * then dropped: the platform also reports messages sent by other tools on
 * the same number.
 * A sender's earlier messages (by the platform's timestamp, then arrival)
 * are taken first, in any process, or here (inbox.ts, `takeInOrder`), so
 * several messages handled at once are still stored in the order they were sent.
 * Input the pipeline refuses is logged and dropped (repeating cannot fix it).
 */
export function startChanAInboundWorker(deps: ChanAInboundWorkerDeps): void {
  const { queue, intake, statuses, inbox, logger } = deps;
  /** The intake of one message; input the pipeline refuses is logged and dropped (repeating cannot fix it). */
  const intakeOrDrop = async (item: InboundItem, jobId: string, lastAttempt: boolean) => {
    try {
      return await intake.handle(item, { lastAttempt });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      logger.warn({ jobId, details: error.details }, 'chanA: an inbound message was refused; dropped');
      return 'refused' as const;
    }
  };
  queue.process<InboundItem | StatusItem>(
    'chanA-inbound',
    async (job) => {
      if (job.name === INBOUND_JOB.status) {
        const item = job.data as StatusItem;
        const outcome = await statuses.apply(item);
        if (outcome === 'unknown' || outcome === 'pending') {
          if (!isLastAttempt(job)) {
            throw new Error(
              outcome === 'unknown'
                ? `no outbound message has the platform id ${item.id} yet`
                : `the message of platform id ${item.id} is still being sent`,
            );
          }
          logger.info(
            { platformMessageId: item.id, outcome },
            'chanA: a receipt could not be applied; dropped',
          );
        }
        return outcome;
      }
      return inbox.takeInOrder(
        'chanA-inbound',
        job.id,
        () => intakeOrDrop(job.data as InboundItem, job.id, isLastAttempt(job)),
        (payload, jobId) => intakeOrDrop(payload as InboundItem, jobId, false),
      );
    },
    {
      concurrency: CONCURRENCY,
      onFailed: async (job, error) => {
        logger.warn(
          { jobId: job.id, name: job.name, err: error },
          'chanA: an inbound job failed its last try',
        );
        // Later messages of the sender stop waiting for this one.
        if (job.name === INBOUND_JOB.message) await inbox.markTaken('chanA-inbound', job.id);
      },
    },
  );
}
