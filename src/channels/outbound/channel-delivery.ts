import type { Database, Transaction } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { DriverLogger } from '../../core/logger.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import type { NotificationsPort } from '../../modules/notifications/notifications.service.js';
import { createDeliveryFailures } from './delivery-failures.js';
import { createOutboundRepository } from './outbound.repository.js';
import type { OutboundDeps } from './outbound-worker.js';

/**
 * What both channels' outbound workers share, built once by container.ts:
 * the queue, the key-value store (token buckets, locks, last-outbound
 * times), the message repository and the failure path (failed status plus
 * a `system` notification to the department's approvers). A channel starts
 * its worker with `createOutboundWorker({ ...deps, transport, bucket })`.
 */
export function createChannelDelivery(deps: {
  db: Database;
  queue: QueueDriver;
  kv: KeyValue;
  notifications: NotificationsPort;
  /** The pipeline's approver rule (delivery.ts), reused for failure notices. */
  approversOf: (departmentId: string, tx: Transaction) => Promise<string[]>;
  logger: DriverLogger;
  /** Told of each outbound job's outcome (the delivery metrics); none when absent. */
  observeDelivery?: OutboundDeps['observeDelivery'];
}): OutboundDeps {
  const repository = createOutboundRepository(deps.db);
  const failures = createDeliveryFailures({
    db: deps.db,
    repository,
    approversOf: deps.approversOf,
    notifications: deps.notifications,
    logger: deps.logger,
  });
  return {
    queue: deps.queue,
    kv: deps.kv,
    repository,
    failures,
    logger: deps.logger,
    observeDelivery: deps.observeDelivery,
  };
}
