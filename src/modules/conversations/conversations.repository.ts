import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { agentTasks, conversations, messages, users } from '../../core/db/schema/index.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type ConversationListRow = ConversationRow & { userName: string | null };
/** A message with the task that answers it (inbound) or wrote it (outbound). */
export type MessagePageRow = MessageRow & { answeringTaskId: string | null };

/** Whose messages a page reads: one conversation, or every web conversation of one user. */
export type MessageSource = { conversationId: string } | { webUserId: string };

function sourceCondition(source: MessageSource): SQL {
  if ('conversationId' in source) return eq(messages.conversationId, source.conversationId);
  return sql`${messages.conversationId} in (select ${conversations.id} from ${conversations}
    where ${conversations.channel} = 'web' and ${conversations.userId} = ${source.webUserId})`;
}

/** Read side of conversations and messages (the pipeline writes them). */
export function createConversationsRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<ConversationRow | null> {
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
  };
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
