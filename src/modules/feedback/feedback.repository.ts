import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { agentTasks, conversations, messages, replyFeedback, users } from '../../core/db/schema/index.js';

export type ReplyFeedbackRow = typeof replyFeedback.$inferSelect;

/** An assistant reply as a rating needs it: its conversation's owner and channel, its task's intent. */
export interface RateableReply {
  messageId: string;
  content: string;
  /** Null for a reply the assistant sent itself (auto-sent); set when a human approved it. */
  approvalId: string | null;
  conversationId: string;
  conversationChannel: string;
  /** The employee the conversation is with: the only one who may rate its replies. */
  userId: string;
  userName: string;
  departmentId: string;
  namespaceId: string | null;
  intent: string | null;
}

const replyColumns = {
  messageId: messages.id,
  content: messages.content,
  approvalId: messages.approvalId,
  conversationId: conversations.id,
  conversationChannel: conversations.channel,
  userId: conversations.userId,
  userName: users.name,
  departmentId: conversations.departmentId,
  namespaceId: agentTasks.namespaceId,
  intent: sql<string | null>`${agentTasks.output} ->> 'intent'`,
};

/**
 * An assistant reply: an outbound message that an agent task produced. Outbound messages without
 * a task are the channels' own fixed texts ("I can only read text", the `/start` greeting), never rated.
 */
const isAssistantReply = and(eq(messages.direction, 'outbound'), isNotNull(messages.taskId));

/** `reply_feedback` (written here only), and the reads of replies that a rating needs. */
export function createFeedbackRepository(db: Database) {
  function replies(tx: DbExecutor) {
    return tx
      .select(replyColumns)
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .innerJoin(users, eq(users.id, conversations.userId))
      .leftJoin(agentTasks, eq(agentTasks.id, messages.taskId));
  }

  return {
    /** The assistant reply `messageId`; null for any other message or none. */
    async findReply(messageId: string, tx: DbExecutor = db): Promise<RateableReply | null> {
      const [row] = await replies(tx)
        .where(and(eq(messages.id, messageId), isAssistantReply))
        .limit(1);
      return row ?? null;
    },

    /**
     * The assistant reply one of whose parts the platform knows as `platformMessageId`
     * (`channel_message_id` holds the last part's id, `metadata.platformMessageIds` all of them),
     * in a conversation with `recipient` when given (channel B's message ids count per chat).
     */
    async findReplyByPlatformId(
      channel: 'chanA' | 'chanB',
      platformMessageId: string,
      recipient: string | null = null,
      tx: DbExecutor = db,
    ): Promise<RateableReply | null> {
      const [row] = await replies(tx)
        .where(
          and(
            eq(messages.channel, channel),
            isAssistantReply,
            or(
              eq(messages.channelMessageId, platformMessageId),
              sql`${messages.metadata} @> jsonb_build_object('platformMessageIds', jsonb_build_array(${platformMessageId}::text))`,
            ),
            recipient === null ? undefined : eq(conversations.channelUserId, recipient),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    /** Locks the reply's message row until the transaction ends: ratings of one reply go one at a time. */
    async lockReply(messageId: string, tx: DbExecutor): Promise<void> {
      await tx.select({ id: messages.id }).from(messages).where(eq(messages.id, messageId)).for('update');
    },

    async find(messageId: string, userId: string, tx: DbExecutor = db): Promise<ReplyFeedbackRow | null> {
      const [row] = await tx
        .select()
        .from(replyFeedback)
        .where(and(eq(replyFeedback.messageId, messageId), eq(replyFeedback.userId, userId)))
        .limit(1);
      return row ?? null;
    },

    /** Writes the sender's rating of the reply, replacing the one they gave before. */
    async upsert(
      values: {
        messageId: string;
        userId: string;
        rating: 'up' | 'down';
        comment: string | null;
        channel: string;
      },
      tx: DbExecutor,
    ): Promise<ReplyFeedbackRow> {
      const [row] = await tx
        .insert(replyFeedback)
        .values(values)
        .onConflictDoUpdate({
          target: [replyFeedback.messageId, replyFeedback.userId],
          set: {
            rating: values.rating,
            comment: values.comment,
            channel: values.channel,
            updatedAt: new Date(),
          },
        })
        .returning();
      return row!;
    },

    async remove(messageId: string, userId: string, tx: DbExecutor): Promise<void> {
      await tx
        .delete(replyFeedback)
        .where(and(eq(replyFeedback.messageId, messageId), eq(replyFeedback.userId, userId)));
    },

    /** The ratings of the reply an approval released (the outbound message with its approval id), oldest first. */
    async ofApproval(approvalId: string, tx: DbExecutor = db): Promise<ReplyFeedbackRow[]> {
      return tx
        .select({
          id: replyFeedback.id,
          messageId: replyFeedback.messageId,
          userId: replyFeedback.userId,
          rating: replyFeedback.rating,
          comment: replyFeedback.comment,
          channel: replyFeedback.channel,
          createdAt: replyFeedback.createdAt,
          updatedAt: replyFeedback.updatedAt,
        })
        .from(replyFeedback)
        .innerJoin(messages, eq(messages.id, replyFeedback.messageId))
        .where(and(eq(messages.approvalId, approvalId), eq(messages.direction, 'outbound')))
        .orderBy(asc(replyFeedback.createdAt), asc(replyFeedback.id));
    },
  };
}

export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
