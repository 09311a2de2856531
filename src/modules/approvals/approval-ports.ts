import type { AfterCommit } from '../../core/after-commit.js';
import type { Transaction } from '../../core/db/client.js';
import type { ConversationRow } from '../conversations/conversations.repository.js';
import type { MessageRow } from '../conversations/messages.repository.js';

/** A reply to write in a conversation: an approved draft (`approvalId`), or a task's or the bot's own. */
export interface ReleasedReply {
  conversation: ConversationRow;
  taskId: string | null;
  approvalId: string | null;
  content: string;
}

/** The reply as written (`created` false when the task had one already) and what to publish after the commit. */
export interface ReleasedReplyWritten {
  message: MessageRow;
  created: boolean;
  effects: AfterCommit;
}

/**
 * What a decision needs from the reply routing (the pipeline's, passed in by
 * container.ts): an approved reply written in the decision's transaction as
 * the pipeline writes its own, and the jobs and events published after the
 * commit.
 */
export interface ReplyRelease {
  /** Writes the reply (the existing one when the task has a reply already), answering what to publish. */
  deliverReply(tx: Transaction, input: ReleasedReply): Promise<ReleasedReplyWritten>;
  /** After the commit: enqueues the outbound jobs and publishes `notification.created` for each row. */
  publish(effects: AfterCommit): Promise<void>;
}
