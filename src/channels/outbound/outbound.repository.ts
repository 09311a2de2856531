import { and, eq, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { conversations, messages } from '../../core/db/schema/index.js';
import {
  createMessagesRepository,
  type MessageRow,
} from '../../modules/conversations/messages.repository.js';

export type OutboundMessageRow = MessageRow;

/** An outbound message with what sending it needs from its conversation. */
export interface OutboundRecord {
  message: OutboundMessageRow;
  conversation: { id: string; channel: string; channelUserId: string | null; departmentId: string };
  /**
   * Whether a reply of the same conversation written before this one is
   * still waiting to be sent (not deferred on purpose to a later time).
   */
  earlierUnsent: boolean;
}

/** What the outbound worker reads and writes on `messages` (the writes: modules/conversations/messages.repository.ts). */
export function createOutboundRepository(db: Database) {
  const writes = createMessagesRepository(db);
  return {
    async load(messageId: string, tx: DbExecutor = db): Promise<OutboundRecord | null> {
      const [row] = await tx
        .select({
          message: messages,
          conversation: {
            id: conversations.id,
            channel: conversations.channel,
            channelUserId: conversations.channelUserId,
            departmentId: conversations.departmentId,
          },
          // Served by the partial index of queued outbound messages (schema/conversations.ts). A reply
          // deferred on purpose (rate limit, the platform's "later") is left out: it holds nobody up.
          earlierUnsent: sql<boolean>`EXISTS (SELECT 1 FROM ${messages} AS earlier
            WHERE earlier.direction = 'outbound' AND earlier.status = 'queued'
              AND earlier.conversation_id = ${messages.conversationId}
              AND earlier.created_at < ${messages.createdAt}
              AND coalesce((earlier.metadata ->> 'deferredUntil')::timestamptz < now(), true))`,
        })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(and(eq(messages.id, messageId), eq(messages.direction, 'outbound')))
        .limit(1);
      return row ?? null;
    },

    // The delivery states are written by the one writer of `messages`.
    recordPart: writes.recordPart,
    openAttempt: writes.openAttempt,
    defer: writes.defer,
    closeAttempt: writes.closeAttempt,
    markSent: writes.markSent,
    markFailed: writes.markFailed,
  };
}

export type OutboundRepository = ReturnType<typeof createOutboundRepository>;
