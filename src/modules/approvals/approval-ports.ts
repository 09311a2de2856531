import type { AfterCommit } from '../../core/after-commit.js';
import type { Transaction } from '../../core/db/client.js';
import type { ConversationRow } from '../conversations/conversations.repository.js';
import type { MessageRow } from '../conversations/messages.repository.js';

/**
 * What a decision needs from the reply routing (the pipeline's, passed in by
 * container.ts): an approved reply written in the decision's transaction as
 * the pipeline writes its own, and the jobs and events published after the
 * commit.
 */
export interface ReplyRelease {
  /** Writes the reply (the existing one when the task has a reply already), answering what to publish. */
  deliverReply(
    tx: Transaction,
    input: {
      conversation: ConversationRow;
      taskId: string | null;
      approvalId: string | null;
      content: string;
    },
  ): Promise<{ message: MessageRow; created: boolean; effects: AfterCommit }>;
  /** After the commit: enqueues the outbound jobs and publishes `notification.created` for each row. */
  publish(effects: AfterCommit): Promise<void>;
}
