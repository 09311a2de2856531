import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import { ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { ConversationListRow, ConversationsRepository } from './conversations.repository.js';
import type { CONVERSATION_CHANNELS, CONVERSATION_STATUSES } from './conversations.schemas.js';
import type { MessagePageRow, MessageSource, MessagesRepository } from './messages.repository.js';

type Channel = (typeof CONVERSATION_CHANNELS)[number];
type Status = (typeof CONVERSATION_STATUSES)[number];
type Direction = 'inbound' | 'outbound';

export interface ConversationsServiceDeps {
  conversations: Pick<ConversationsRepository, 'list' | 'findConversation'>;
  messages: Pick<MessagesRepository, 'hasMessage' | 'messagePage'>;
}

function toConversation(row: ConversationListRow) {
  return {
    id: row.id,
    channel: row.channel as Channel,
    channelUserId: row.channelUserId,
    userId: row.userId,
    userName: row.userName,
    departmentId: row.departmentId,
    namespaceId: row.namespaceId,
    status: row.status as Status,
    lastMessageAt: iso(row.lastMessageAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function messageFields(row: MessagePageRow) {
  return {
    id: row.id,
    conversationId: row.conversationId,
    direction: row.direction as Direction,
    content: row.content,
    status: row.status,
    taskId: row.answeringTaskId,
    createdAt: iso(row.createdAt),
  };
}

function toMessage(row: MessagePageRow) {
  return {
    ...messageFields(row),
    channel: row.channel as Channel,
    approvalId: row.approvalId,
    metadata: row.metadata,
  };
}

/**
 * The client's own id of a web message: the pipeline stores it as
 * `<user id>:<client id>` so that ids are unique per user.
 */
function clientMessageIdOf(row: MessagePageRow, userId: string): string | null {
  const prefix = `${userId}:`;
  return row.direction === 'inbound' && row.channelMessageId?.startsWith(prefix)
    ? row.channelMessageId.slice(prefix.length)
    : null;
}

/** Conversations for approvers, and an employee's own web chat history (channels/web sends to it). */
export function createConversationsService(deps: ConversationsServiceDeps) {
  const { conversations, messages } = deps;

  /** One page newest first; `nextCursor` is set only when an older message exists. */
  async function page(source: MessageSource, query: { cursor?: string; limit?: number }) {
    const limit = query.limit ?? 20;
    if (query.cursor && !(await messages.hasMessage(source, query.cursor))) {
      throw new ValidationError([
        { field: 'querystring.cursor', message: `message ${query.cursor} is not one of these messages` },
      ]);
    }
    const rows = await messages.messagePage(source, {
      ...(query.cursor ? { cursor: query.cursor } : {}),
      limit: limit + 1,
    });
    const items = rows.slice(0, limit);
    return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.id : null };
  }

  return {
    /**
     * Conversations of the actor's departments (narrowed by `departmentId`), most recently active first.
     * @throws ForbiddenError when `departmentId` is outside the actor's departments.
     */
    async list(
      actor: Actor,
      query: { departmentId?: string; channel?: string; status?: string; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await conversations.list(
        departmentScope(actor, query.departmentId),
        {
          ...(query.channel ? { channel: query.channel } : {}),
          ...(query.status ? { status: query.status } : {}),
        },
        { limit, offset },
      );
      return { items: rows.map(toConversation), total, limit, offset };
    },

    /**
     * A conversation's messages, newest first, with cursor paging.
     * @throws NotFoundError when the conversation is missing or outside the actor's departments.
     * @throws ValidationError when the cursor is not a message of this conversation.
     */
    async messages(actor: Actor, conversationId: string, query: { cursor?: string; limit?: number }) {
      assertVisible(
        actor,
        await conversations.findConversation(conversationId),
        (c) => c.departmentId,
        `Conversation ${conversationId} not found`,
      );
      const { items, nextCursor } = await page({ conversationId }, query);
      return { items: items.map(toMessage), nextCursor };
    },

    /**
     * The actor's own web chat (every web conversation of theirs, closed ones
     * included), newest first, with cursor paging.
     * @throws ValidationError when the cursor is not one of the actor's web messages.
     */
    async webMessages(actor: Actor, query: { cursor?: string; limit?: number }) {
      const { items, nextCursor } = await page({ webUserId: actor.userId }, query);
      return {
        items: items.map((row) => ({
          ...messageFields(row),
          clientMessageId: clientMessageIdOf(row, actor.userId),
        })),
        nextCursor,
      };
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
