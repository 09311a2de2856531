import { and, desc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { type Database, type DbExecutor, rowsOf } from '../core/db/client.js';
import {
  agentTasks,
  approvals,
  channelIdentities,
  conversations,
  departments,
  employeeProfiles,
  messages,
  namespaces,
  users,
} from '../core/db/schema/index.js';
import { rowFromJson } from '../core/db/sql-helpers.js';
import { prepareTaskContext } from './task-context.query.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NamespaceRow = typeof namespaces.$inferSelect;
export type UserRow = typeof users.$inferSelect;
/** A task with what its steps read (see `taskContext`). */
export type TaskSnapshot = Awaited<
  ReturnType<ReturnType<typeof createConversationsRepository>['taskContext']>
>;
export type NewMessage = typeof messages.$inferInsert;

/** One turn of a conversation as the pipeline hands it to a model or a reviewer. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
}

/**
 * A conversation that is not closed. The status is written into the
 * statement, not sent as a parameter: prepared statements keep a generic
 * plan after a few runs, and only a literal lets that plan use the partial
 * unique index on open conversations (with a parameter PostgreSQL planned
 * the sender's lookup again on every message).
 */
const notClosed = sql`${conversations.status} <> 'closed'`;

/**
 * The status of a conversation that is not closed, from its approvals:
 * `escalated` when an escalated reply waits, `awaiting_approval` when a
 * pending one does, `open` otherwise.
 */
export function statusFromApprovals(conversationId: SQL): SQL {
  return sql`case
    when exists (select 1 from ${approvals} a where a.conversation_id = ${conversationId} and a.status = 'escalated') then 'escalated'
    when exists (select 1 from ${approvals} a where a.conversation_id = ${conversationId} and a.status = 'pending') then 'awaiting_approval'
    else 'open' end`;
}

/**
 * The id of the namespace a department's channel messages go to: the
 * department's `settings.defaultNamespaceId` when it names one of its
 * namespaces, otherwise its oldest namespace; null when it has none.
 */
export function routedNamespaceOf(departmentId: SQL): SQL {
  return sql`(SELECT n.id FROM ${namespaces} n JOIN ${departments} d ON d.id = n.department_id
    WHERE n.department_id = ${departmentId}
    ORDER BY n.id::text = d.settings ->> 'defaultNamespaceId' DESC NULLS LAST, n.created_at, n.id
    LIMIT 1)`;
}

/**
 * How a message's sender is found among the users: by id (web chat, whose
 * user is authenticated), by phone number (channel A, E.164 digits: a stored
 * channel A identity first, then `users.phone`) or by a stored channel
 * identity (channel B).
 */
export type SenderLookup =
  | { by: 'id'; userId: string }
  | { by: 'phone'; digits: string }
  | { by: 'identity'; channel: string; channelUserId: string };

/** The sender's user row, at most one, as a subquery (the inbound route reads it with the conversation). */
export function senderQuery(lookup: SenderLookup): SQL {
  switch (lookup.by) {
    case 'id':
      return sql`SELECT * FROM ${users} WHERE id = ${lookup.userId}::uuid LIMIT 1`;
    case 'phone':
      // A stored channel A identity wins over a phone match (docs/channels.md, linking).
      return sql`SELECT * FROM ${users} WHERE id = coalesce(
        (SELECT i.user_id FROM ${channelIdentities} i WHERE i.channel = 'chanA' AND i.channel_user_id = ${lookup.digits}),
        (SELECT p.id FROM ${users} p WHERE p.phone = ${lookup.digits} LIMIT 1)) LIMIT 1`;
    case 'identity':
      return sql`SELECT u.* FROM ${channelIdentities} i JOIN ${users} u ON u.id = i.user_id
        WHERE i.channel = ${lookup.channel} AND i.channel_user_id = ${lookup.channelUserId} LIMIT 1`;
  }
}

/** Conversations, messages and the channel senders behind them. */
export function createConversationsRepository(db: Database) {
  /** The sender's conversation on this channel that is not closed (at most one, by a unique index). */
  async function findOpen(channel: string, channelUserId: string, tx: DbExecutor = db) {
    const [row] = await tx
      .select()
      .from(conversations)
      .where(
        and(eq(conversations.channel, channel), eq(conversations.channelUserId, channelUserId), notClosed),
      )
      .limit(1);
    return row ?? null;
  }

  /** Opens a conversation; null when a concurrent message opened the sender's conversation first. */
  async function insertConversation(
    values: PgInsertValue<typeof conversations>,
    tx: DbExecutor,
  ): Promise<ConversationRow | null> {
    const [row] = await tx.insert(conversations).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  const taskContextQuery = prepareTaskContext(db);
  return {
    findOpen,

    /** The user a message's sender is (see {@link senderQuery}, which the inbound statement reads too). */
    async findSender(lookup: SenderLookup): Promise<UserRow | null> {
      const [row] = rowsOf<{ sender: Record<string, unknown> }>(
        await db.execute(sql`SELECT row_to_json(s) AS sender FROM (${senderQuery(lookup)}) s`),
      );
      return row ? rowFromJson(users, row.sender) : null;
    },

    async findUserByEmail(email: string, tx: DbExecutor = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row ?? null;
    },

    /**
     * Creates a channel user (a placeholder: linking the sender later merges
     * it into the real user) with an empty profile; answers null when a
     * concurrent message created the same sender first (same email or phone).
     */
    async insertChannelUser(values: typeof users.$inferInsert, tx: DbExecutor): Promise<UserRow | null> {
      const [user] = await tx
        .insert(users)
        .values({ ...values, isPlaceholder: true })
        .onConflictDoNothing()
        .returning();
      if (!user) return null;
      await tx.insert(employeeProfiles).values({ userId: user.id }).onConflictDoNothing();
      return user;
    },

    async insertIdentity(channel: string, channelUserId: string, userId: string, tx: DbExecutor) {
      await tx.insert(channelIdentities).values({ channel, channelUserId, userId }).onConflictDoNothing();
    },

    /**
     * A task and what its steps read, in one query (the read of every run
     * job): the task (null when it does not exist), whether a task of the
     * same conversation that came in earlier has not finished yet (then this
     * one must wait for it: per-conversation order), its namespace,
     * conversation, inbound message and sender (each null when missing), the
     * ids of the knowledge bases of the namespace's department, oldest first,
     * the sender's profile facts (null without a profile) and the last
     * `historyTurns` turns before the message (as {@link turnsBefore}), and
     * the namespace's intent trust records with the intents the sender met
     * in it (`standings`). With `start`, the same statement starts a task
     * whose turn has come and that no try has started (`started`: the task
     * as started, else null; `task` is the row as it was read).
     */
    async taskContext(taskId: string, historyTurns: number, options: { start?: boolean } = {}) {
      const [row] = await taskContextQuery.execute({ taskId, historyTurns, start: options.start ?? false });
      return {
        task: row?.task ?? null,
        started: row?.started ? rowFromJson(agentTasks, row.started) : null,
        earlierUnfinished: Boolean(row?.earlierUnfinished),
        namespace: row?.namespace ?? null,
        conversation: row?.conversation ?? null,
        inbound: row?.inbound ?? null,
        user: row?.user ?? null,
        knowledgeBaseIds: (row?.knowledgeBases ?? []).map((base) => base.id),
        knowledgeBases: row?.knowledgeBases ?? [],
        approverRoleIds: row?.approverRoleIds ?? [],
        profile: row?.profile ?? null,
        standings: {
          trust: new Map(
            Object.entries(row?.intentTrust ?? {}).map(([intent, trust]) => [
              intent,
              { isAutonomous: Boolean(trust.isAutonomous), samplingRate: Number(trust.samplingRate) },
            ]),
          ),
          met: new Set(row?.metIntents ?? []),
        },
        turns: (row?.turns ?? []).reverse().map(
          (turn): Turn => ({
            role: turn.direction === 'inbound' ? 'user' : 'assistant',
            content: turn.content,
            // json_build_object writes the timestamp in PostgreSQL's ISO form; the same instant as a Date.
            createdAt: new Date(turn.createdAt).toISOString(),
          }),
        ),
      };
    },

    async findConversation(id: string, tx: DbExecutor = db): Promise<ConversationRow | null> {
      const [row] = await tx.select().from(conversations).where(eq(conversations.id, id)).limit(1);
      return row ?? null;
    },

    /**
     * The sender's conversation on `channel` that is not closed, opened when
     * none (without a namespace: the pipeline's first task sets it). A
     * concurrent message that opens it first is met by the unique index,
     * and its conversation is answered.
     * @throws when the conversation was neither opened nor found (closed in between).
     */
    async openOrFind(
      channel: 'chanA' | 'chanB',
      sender: { id: string; departmentId: string },
      channelUserId: string,
      tx: DbExecutor,
    ): Promise<ConversationRow> {
      const existing = await findOpen(channel, channelUserId, tx);
      if (existing) return existing;
      const created = await insertConversation(
        {
          channel,
          channelUserId,
          userId: sender.id,
          departmentId: sender.departmentId,
          namespaceId: null,
          status: 'open',
        },
        tx,
      );
      const found = created ?? (await findOpen(channel, channelUserId, tx));
      if (!found)
        throw new Error(`conversation of ${channel} sender ${channelUserId} was neither opened nor found`);
      return found;
    },

    async touch(id: string, patch: { namespaceId?: string | null; at: Date }, tx: DbExecutor) {
      await tx
        .update(conversations)
        .set({
          lastMessageAt: patch.at,
          ...(patch.namespaceId !== undefined ? { namespaceId: patch.namespaceId } : {}),
        })
        .where(eq(conversations.id, id));
    },

    async findMessageByChannelId(channel: string, channelMessageId: string, tx: DbExecutor = db) {
      const [row] = await tx
        .select()
        .from(messages)
        .where(and(eq(messages.channel, channel), eq(messages.channelMessageId, channelMessageId)))
        .limit(1);
      return row ?? null;
    },

    async findMessage(id: string, tx: DbExecutor = db): Promise<MessageRow | null> {
      const [row] = await tx.select().from(messages).where(eq(messages.id, id)).limit(1);
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

    /**
     * Sets the status a conversation has while it is not closed: `escalated`
     * when an escalated reply waits, `awaiting_approval` when a pending one
     * does, `open` otherwise. A closed conversation stays closed.
     */
    async refreshStatus(conversationId: string, tx: DbExecutor): Promise<void> {
      await tx
        .update(conversations)
        .set({
          status: statusFromApprovals(sql`${conversationId}::uuid`),
        })
        .where(and(eq(conversations.id, conversationId), notClosed));
    },

    /**
     * Closes every `open` conversation whose last message is older than
     * `before`; answers how many. One waiting for a human is not idle.
     */
    async closeIdle(before: Date, tx: DbExecutor = db): Promise<number> {
      const rows = await tx
        .update(conversations)
        .set({ status: 'closed' })
        .where(
          and(
            eq(conversations.status, 'open'),
            sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt}) < ${before.toISOString()}::timestamptz`,
          ),
        )
        .returning({ id: conversations.id });
      return rows.length;
    },
  };
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
