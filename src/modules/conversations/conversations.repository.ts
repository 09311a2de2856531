import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { approvals, conversations, users } from '../../core/db/schema/index.js';

/**
 * The only file that writes `conversations` (a test checks it): the
 * repository's methods, and the parts of the pipeline's one-statement
 * writes that touch a conversation ({@link openedConversationCte},
 * {@link conversationTouchedCte}), which the pipeline composes with the
 * other tables' parts.
 */

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationListRow = ConversationRow & { userName: string | null };

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
 * pending one does, `open` otherwise. `written` is the status of an
 * approval the same statement writes (a statement's CTEs do not see each
 * other's rows, so it is named here besides the stored ones).
 */
export function statusFromApprovals(conversationId: SQL, written: SQL = sql`NULL::text`): SQL {
  return sql`case
    when ${written} = 'escalated' or exists (select 1 from ${approvals} a where a.conversation_id = ${conversationId} and a.status = 'escalated') then 'escalated'
    when ${written} = 'pending' or exists (select 1 from ${approvals} a where a.conversation_id = ${conversationId} and a.status = 'pending') then 'awaiting_approval'
    else 'open' end`;
}

/**
 * The CTE `opened`: the conversation an inbound message opens, from the
 * inbound statement's `route` CTE (user, department, namespace) when the
 * sender has none open (`route.open_id IS NULL`) and `unless` holds no row
 * (the message is a repeat); the unique index on open conversations turns
 * a concurrent opening into no row.
 */
export function openedConversationCte(input: {
  id: string;
  channel: string;
  channelUserId: string;
  unless: SQL;
}): SQL {
  return sql`opened AS (
      INSERT INTO conversations (id, channel, channel_user_id, user_id, department_id, namespace_id, status,
        last_message_at)
      SELECT ${input.id}::uuid, ${input.channel}, ${input.channelUserId}, route.user_id, route.department_id,
        route.namespace_id, 'open', now()
      FROM route
      WHERE route.open_id IS NULL AND NOT EXISTS (${input.unless})
      ON CONFLICT DO NOTHING
      RETURNING id
    )`;
}

/**
 * The CTE `touched`: the conversation of the message the CTE `message`
 * wrote gets its last message time. For an inbound message (`route` given,
 * the inbound statement's CTE) an open conversation takes the routed
 * namespace when it had none; for a reply its status follows its approvals
 * (a closed one stays closed).
 */
export function conversationTouchedCte(message: 'message' | 'reply', route: 'route' | null): SQL {
  const m = sql.raw(message);
  return route
    ? sql`touched AS (
      UPDATE conversations c SET last_message_at = ${m}.created_at, updated_at = now(),
        namespace_id = coalesce(c.namespace_id, route.namespace_id)
      FROM ${m}, route
      WHERE c.id = ${m}.conversation_id AND route.open_id IS NOT NULL
    )`
    : sql`touched AS (
      UPDATE conversations c SET last_message_at = ${m}.created_at, updated_at = now(),
        status = CASE WHEN c.status = 'closed' THEN 'closed' ELSE ${statusFromApprovals(sql`c.id`)} END
      FROM ${m}
      WHERE c.id = ${m}.conversation_id
    )`;
}

/**
 * The CTE `waiting`: the conversation of the approval the CTE `approval`
 * wrote is marked as waiting for it ({@link statusFromApprovals}), unless closed.
 */
export function conversationWaitingCte(conversationId: string): SQL {
  return sql`waiting AS (
      UPDATE conversations c SET updated_at = now(),
        status = ${statusFromApprovals(sql`c.id`, sql`approval.status`)}
      FROM approval
      WHERE c.id = ${conversationId}::uuid AND c.status <> 'closed'
    )`;
}

/** Conversations: the approvers' views, and every write of the table. */
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

  return {
    findOpen,

    async findConversation(id: string, tx: DbExecutor = db): Promise<ConversationRow | null> {
      const [row] = await tx.select().from(conversations).where(eq(conversations.id, id)).limit(1);
      return row ?? null;
    },

    /** Conversations inside `scope`, the most recently active first. */
    async list(
      scope: DepartmentScope,
      filters: { channel?: string; status?: string },
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: ConversationListRow[]; total: number }> {
      const where = and(
        scopeCondition(scope, conversations.departmentId),
        filters.channel ? eq(conversations.channel, filters.channel) : undefined,
        filters.status ? eq(conversations.status, filters.status) : undefined,
      );
      const { rows, total } = await pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select({ conversation: conversations, userName: users.name })
            .from(conversations)
            .leftJoin(users, eq(users.id, conversations.userId))
            .where(where)
            .orderBy(
              sql`${conversations.lastMessageAt} desc nulls last`,
              desc(conversations.createdAt),
              desc(conversations.id),
            )
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(conversations).where(where),
      });
      return {
        rows: rows.map((r) => ({ ...r.conversation, userName: r.userName })),
        total,
      };
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

    /** Sets the conversation's last message time (and its namespace, when given). */
    async touch(id: string, patch: { namespaceId?: string | null; at: Date }, tx: DbExecutor) {
      await tx
        .update(conversations)
        .set({
          lastMessageAt: patch.at,
          ...(patch.namespaceId !== undefined ? { namespaceId: patch.namespaceId } : {}),
        })
        .where(eq(conversations.id, id));
    },

    /**
     * Sets the status a conversation has while it is not closed
     * ({@link statusFromApprovals}). A closed conversation stays closed.
     */
    async refreshStatus(conversationId: string, tx: DbExecutor): Promise<void> {
      await tx
        .update(conversations)
        .set({ status: statusFromApprovals(sql`${conversationId}::uuid`) })
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

    /**
     * Closes the sender's conversation on the channel that is not closed: a
     * sender whose link changed starts a new one, routed by their new user.
     */
    async closeOpenOfSender(channel: string, channelUserId: string, tx: DbExecutor) {
      await tx
        .update(conversations)
        .set({ status: 'closed' })
        .where(
          and(eq(conversations.channel, channel), eq(conversations.channelUserId, channelUserId), notClosed),
        );
    },

    /**
     * Moves the conversations of user `from` to user `to` (their messages,
     * tasks and approvals hang on the conversation); one still open in
     * another department than `toDepartmentId` is closed first, so the
     * sender's next message opens one routed by the new user's department.
     * Answers the ids of the conversations moved.
     */
    async reassignUser(from: string, to: { id: string; departmentId: string }, tx: DbExecutor) {
      await tx
        .update(conversations)
        .set({ status: 'closed', updatedAt: new Date() })
        .where(
          and(
            eq(conversations.userId, from),
            notClosed,
            sql`${conversations.departmentId} <> ${to.departmentId}::uuid`,
          ),
        );
      return tx
        .update(conversations)
        .set({ userId: to.id })
        .where(eq(conversations.userId, from))
        .returning({ id: conversations.id });
    },
  };
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
