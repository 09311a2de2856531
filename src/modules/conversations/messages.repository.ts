import { and, desc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { agentTasks, conversations, messages } from '../../core/db/schema/index.js';
import type { Turn } from './conversations.repository.js';

/**
 * The only file that writes `messages` (a test checks it): the messages
 * of every channel as stored, their delivery states (the outbound worker's
 * and the platforms' receipts), and the parts of the pipeline's
 * one-statement writes that write a message ({@link inboundMessageCte},
 * {@link replyMessageCte}).
 */

export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;
/** A message with the task that answers it (inbound) or wrote it (outbound). */
export type MessagePageRow = MessageRow & { answeringTaskId: string | null };

/** Whose messages a page reads: one conversation, or every web conversation of one user. */
export type MessageSource = { conversationId: string } | { webUserId: string };

/** An outbound message to write; its id is chosen by the database when not given. */
export interface OutboundReply {
  id?: string;
  conversationId: string;
  channel: string;
  content: string;
  /** `queued` for a channel that sends it, `delivered` for the web chat. */
  status: string;
  taskId: string | null;
  approvalId: string | null;
}

/**
 * The CTE `message`: an inbound message stored in the conversation the
 * inbound statement's CTE `placed` names; no row when its channel message
 * id is stored already.
 */
export function inboundMessageCte(input: {
  channel: string;
  content: string;
  channelMessageId: string | null;
  metadata: Record<string, unknown>;
}): SQL {
  return sql`message AS (
      INSERT INTO messages (conversation_id, channel, direction, content, channel_message_id, metadata)
      SELECT placed.id, ${input.channel}, 'inbound', ${input.content}, ${input.channelMessageId},
        ${JSON.stringify(input.metadata)}::jsonb
      FROM placed
      ON CONFLICT DO NOTHING
      RETURNING *
    )`;
}

/**
 * The CTE `reply`: an outbound message. With `gate` (a CTE's name) it is
 * written from that CTE's row and fails the statement on a reply the task
 * has already; without, it is skipped on one.
 */
export function replyMessageCte(reply: OutboundReply, gate: 'task' | null): SQL {
  const values = sql`coalesce(${reply.id ?? null}::uuid, gen_random_uuid()), ${reply.conversationId}::uuid, ${reply.channel}, 'outbound',
    ${reply.content}, ${reply.status}, ${reply.taskId}::uuid, ${reply.approvalId}::uuid`;
  return sql`reply AS (
      INSERT INTO messages (id, conversation_id, channel, direction, content, status, task_id, approval_id)
      ${gate ? sql`SELECT ${values} FROM ${sql.raw(gate)}` : sql`VALUES (${values}) ON CONFLICT DO NOTHING`}
      RETURNING *
    )`;
}

function sourceCondition(source: MessageSource): SQL {
  if ('conversationId' in source) return eq(messages.conversationId, source.conversationId);
  return sql`${messages.conversationId} in (select ${conversations.id} from ${conversations}
    where ${conversations.channel} = 'web' and ${conversations.userId} = ${source.webUserId})`;
}

/** Messages: reads, the channel adapters' inserts and every delivery state change. */
export function createMessagesRepository(db: Database) {
  return {
    async findMessage(id: string, tx: DbExecutor = db): Promise<MessageRow | null> {
      const [row] = await tx.select().from(messages).where(eq(messages.id, id)).limit(1);
      return row ?? null;
    },

    async findMessageByChannelId(channel: string, channelMessageId: string, tx: DbExecutor = db) {
      const [row] = await tx
        .select()
        .from(messages)
        .where(and(eq(messages.channel, channel), eq(messages.channelMessageId, channelMessageId)))
        .limit(1);
      return row ?? null;
    },

    /** Stores a message; null when its channel message id (or its task's reply) exists already. */
    async insertMessage(values: NewMessage, tx: DbExecutor): Promise<MessageRow | null> {
      const [row] = await tx.insert(messages).values(values).onConflictDoNothing().returning();
      return row ?? null;
    },

    /** The outbound reply of a task, if one was written. */
    async findReplyOfTask(taskId: string, tx: DbExecutor = db): Promise<MessageRow | null> {
      const [row] = await tx
        .select()
        .from(messages)
        .where(and(eq(messages.taskId, taskId), eq(messages.direction, 'outbound')))
        .limit(1);
      return row ?? null;
    },

    /** The last `limit` turns before `message` (exclusive), oldest first. */
    async turnsBefore(message: MessageRow, limit: number, tx: DbExecutor = db): Promise<Turn[]> {
      const rows = await tx
        .select({ direction: messages.direction, content: messages.content, createdAt: messages.createdAt })
        .from(messages)
        .where(
          and(
            eq(messages.conversationId, message.conversationId),
            or(
              lt(messages.createdAt, message.createdAt),
              and(eq(messages.createdAt, message.createdAt), lt(messages.id, message.id)),
            ),
            // A reply still waiting for delivery was not seen by the employee.
            or(eq(messages.direction, 'inbound'), inArray(messages.status, ['sent', 'delivered', 'read'])),
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit);
      return rows.reverse().map((row) => ({
        role: row.direction === 'inbound' ? 'user' : 'assistant',
        content: row.content,
        createdAt: row.createdAt.toISOString(),
      }));
    },

    /** Whether the message exists among the source's messages (a cursor must). */
    async hasMessage(source: MessageSource, messageId: string, tx: DbExecutor = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.id, messageId), sourceCondition(source)))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Up to `limit` messages of the source, newest first, older than the
     * cursor message when one is given. The cursor is compared in SQL, so
     * timestamps keep their full (microsecond) precision.
     */
    async messagePage(
      source: MessageSource,
      page: { cursor?: string; limit: number },
      tx: DbExecutor = db,
    ): Promise<MessagePageRow[]> {
      const older = page.cursor
        ? sql`(${messages.createdAt}, ${messages.id}) < (select m.created_at, m.id from ${messages} m where m.id = ${page.cursor})`
        : undefined;
      const rows = await tx
        .select({ message: messages, answeringTaskId: agentTasks.id })
        .from(messages)
        // At most one task per inbound message (unique index on agent_tasks.message_id).
        .leftJoin(agentTasks, eq(agentTasks.messageId, messages.id))
        .where(and(sourceCondition(source), older))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(page.limit);
      return rows.map((r) => ({ ...r.message, answeringTaskId: r.message.taskId ?? r.answeringTaskId }));
    },

    /**
     * Records that part `index` (from 0) was accepted as `platformMessageId`:
     * `metadata.partsSent` becomes `index + 1`, the id is appended to
     * `metadata.platformMessageIds` and becomes `channel_message_id` (the
     * last part's id). Only while the message is `queued` and the part is the
     * next one expected, so a repeat records nothing twice.
     */
    async recordPart(messageId: string, index: number, platformMessageId: string): Promise<boolean> {
      const rows = await db
        .update(messages)
        .set({
          channelMessageId: platformMessageId,
          metadata: sql`${messages.metadata} || jsonb_build_object(
            'partsSent', ${index + 1}::int,
            'platformMessageIds', coalesce(${messages.metadata} -> 'platformMessageIds', '[]'::jsonb) || to_jsonb(${platformMessageId}::text)
          )`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(messages.id, messageId),
            eq(messages.status, 'queued'),
            sql`coalesce((${messages.metadata} ->> 'partsSent')::int, 0) = ${index}`,
          ),
        )
        .returning({ id: messages.id });
      return rows.length > 0;
    },

    /**
     * Records, before the platform is called, that attempt `n` is under way
     * (`metadata.sendAttempt = { n, open: true, at }`), while the message is
     * `queued`. An attempt still open when the next one starts ended with
     * its process, maybe after the platform accepted a part.
     */
    async openAttempt(messageId: string, n: number, at: Date): Promise<void> {
      const attempt = { n, open: true, at: at.toISOString() };
      await db
        .update(messages)
        .set({
          metadata: sql`${messages.metadata} || jsonb_build_object('sendAttempt', ${JSON.stringify(attempt)}::jsonb)`,
        })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'queued')));
    },

    /**
     * Records that the message waits until `until` on purpose (its recipient's
     * rate limit, or the platform's "try again later"): the conversation's
     * later replies need not wait for it.
     */
    async defer(messageId: string, until: Date): Promise<void> {
      await db
        .update(messages)
        .set({
          metadata: sql`${messages.metadata} || jsonb_build_object('deferredUntil', ${until.toISOString()}::text)`,
        })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'queued')));
    },

    /** Closes the open attempt (the platform answered "try again later"): the next one repeats nothing. */
    async closeAttempt(messageId: string): Promise<void> {
      await db
        .update(messages)
        .set({
          metadata: sql`jsonb_set(${messages.metadata}, '{sendAttempt,open}', 'false'::jsonb)`,
        })
        .where(and(eq(messages.id, messageId), sql`${messages.metadata} ? 'sendAttempt'`));
    },

    /** `queued` → `sent`, with `metadata.sentAt`; answers false when the message was no longer queued. */
    async markSent(messageId: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(messages)
        .set({
          status: 'sent',
          metadata: sql`${messages.metadata} || jsonb_build_object('sentAt', ${at.toISOString()}::text)`,
          updatedAt: at,
        })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'queued')))
        .returning({ id: messages.id });
      return rows.length > 0;
    },

    /**
     * Marks the message `failed` with `metadata.failureReason` (and
     * `failedAt`, plus any `note` fields) while its status is one of `from`;
     * answers the row, or null when it was in another state (nothing changed).
     */
    async markFailed(
      messageId: string,
      input: { reason: string; at: Date; from: readonly string[]; note?: Record<string, unknown> },
      tx: DbExecutor = db,
    ): Promise<MessageRow | null> {
      const extra = { ...input.note, failureReason: input.reason, failedAt: input.at.toISOString() };
      const [row] = await tx
        .update(messages)
        .set({
          status: 'failed',
          metadata: sql`${messages.metadata} || ${JSON.stringify(extra)}::jsonb`,
          updatedAt: input.at,
        })
        .where(and(eq(messages.id, messageId), inArray(messages.status, [...input.from])))
        .returning();
      return row ?? null;
    },

    /**
     * Moves the message to `status` only while its status is one of `from`,
     * in one statement (so two receipts at once cannot move it backwards),
     * adding `receipts` to `metadata.receipts` and merging `patch` into the
     * metadata. Answers the updated row, or null when the message was
     * elsewhere already.
     */
    async moveStatus(
      id: string,
      status: string,
      from: readonly string[],
      receipts: Record<string, string>,
      patch: Record<string, unknown> = {},
    ): Promise<MessageRow | null> {
      const merged = sql`coalesce(${messages.metadata} -> 'receipts', '{}'::jsonb) || ${JSON.stringify(receipts)}::jsonb`;
      const [row] = await db
        .update(messages)
        .set({
          status,
          metadata: sql`${messages.metadata} || jsonb_build_object('receipts', ${merged}) || ${JSON.stringify(patch)}::jsonb`,
        })
        .where(and(eq(messages.id, id), inArray(messages.status, [...from])))
        .returning();
      return row ?? null;
    },
  };
}

export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
