import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, tsz, updatedAt } from './columns.js';
import { namespaces } from './knowledge.js';
import { departments, users } from './organisation.js';

export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    /** web, chanA, chanB or email. */
    channel: text('channel').notNull(),
    /** The sender on the platform: channel A phone number, channel B numeric user id. */
    channelUserId: text('channel_user_id'),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    namespaceId: uuid('namespace_id').references(() => namespaces.id, { onDelete: 'set null' }),
    /** open, awaiting_approval, escalated or closed. */
    status: text('status').notNull().default('open'),
    lastMessageAt: tsz('last_message_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One open conversation per channel sender; a closed one is never reused.
    uniqueIndex('conversations_channel_channel_user_id_idx')
      .on(t.channel, t.channelUserId)
      .where(sql`${t.status} <> 'closed'`),
    index('conversations_department_id_status_idx').on(t.departmentId, t.status),
    // An employee's conversations: memory extraction reads their tasks and questions after every task.
    index('conversations_user_id_idx').on(t.userId),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    /** inbound (from the employee) or outbound (from the assistant or a human). */
    direction: text('direction').notNull(),
    content: text('content').notNull(),
    /** The platform's message id, for idempotent webhooks (inbound) and delivery receipts (outbound). */
    channelMessageId: text('channel_message_id'),
    /** Outbound only: queued, sent, delivered, read or failed. Null for inbound messages. */
    status: text('status'),
    /** Outbound only: the agent task whose reply this is (no foreign key: agent_tasks references messages). */
    taskId: uuid('task_id'),
    /** Outbound only: the approval that released the reply, when a human approved it. */
    approvalId: uuid('approval_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('messages_conversation_id_created_at_idx').on(t.conversationId, t.createdAt, t.id),
    // The analytics dashboard reads a created_at range of messages, joined to their conversations.
    index('messages_created_at_idx').on(t.createdAt),
    uniqueIndex('messages_channel_channel_message_id_idx')
      .on(t.channel, t.channelMessageId)
      .where(sql`${t.channelMessageId} is not null`),
    // One reply per task, however often its job is replayed.
    uniqueIndex('messages_task_id_idx')
      .on(t.taskId)
      .where(sql`${t.taskId} is not null and ${t.direction} = 'outbound'`),
    // Replies waiting to be sent: the minute's re-enqueue of lost jobs reads them (lost-jobs.ts).
    index('messages_outbound_queued_idx')
      .on(t.createdAt)
      .where(sql`${t.direction} = 'outbound' and ${t.status} = 'queued'`),
  ],
);

/**
 * An employee's rating of an assistant reply (web, channel A reactions, channel B buttons or
 * reactions): one per reply and sender, a new rating replacing the old (docs/approvals.md).
 */
export const replyFeedback = pgTable(
  'reply_feedback',
  {
    id: id(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** up or down. */
    rating: text('rating').notNull(),
    comment: text('comment'),
    /** Where it was given: web, chanA or chanB. */
    channel: text('channel').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('reply_feedback_message_id_user_id_idx').on(t.messageId, t.userId),
    index('reply_feedback_created_at_idx').on(t.createdAt),
    check('reply_feedback_rating_check', sql`${t.rating} in ('up', 'down')`),
  ],
);
