import type { notifications } from './db/schema/index.js';
import type { QueueName } from './queue/queue.js';

/**
 * Work a transaction leaves for after its commit, so that nothing is sent
 * or pushed for a change that rolled back: the outbound jobs of the replies
 * it wrote and the notifications whose `notification.created` events are
 * still to be published.
 */
export interface AfterCommit {
  jobs: Array<{ queue: QueueName; messageId: string }>;
  notifications: Array<typeof notifications.$inferSelect>;
}
