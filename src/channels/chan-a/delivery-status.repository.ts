import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../core/db/client.js';
import { messages } from '../../core/db/schema/index.js';
import {
  createMessagesRepository,
  type MessageRow,
} from '../../modules/conversations/messages.repository.js';

export type OutboundMessageRow = MessageRow;

/**
 * The outbound channel A messages that receipts update. The sender stores
 * the platform id of each part it sent: `channel_message_id` holds the last
 * part's (indexed), `metadata.platformMessageIds` all of them.
 */
export function createDeliveryStatusRepository(db: Database) {
  const writes = createMessagesRepository(db);
  return {
    /** The outbound message one of whose parts has this platform id; null when none does (yet). */
    async findByPlatformId(platformMessageId: string): Promise<OutboundMessageRow | null> {
      const [last] = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.channel, 'chanA'),
            eq(messages.channelMessageId, platformMessageId),
            eq(messages.direction, 'outbound'),
          ),
        )
        .limit(1);
      if (last) return last;
      // An earlier part of a split message: only its metadata names it.
      const [part] = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.channel, 'chanA'),
            eq(messages.direction, 'outbound'),
            sql`${messages.metadata} @> jsonb_build_object('platformMessageIds', jsonb_build_array(${platformMessageId}::text))`,
          ),
        )
        .limit(1);
      return part ?? null;
    },

    /** The receipt's status change, written by the one writer of `messages` (modules/conversations). */
    moveStatus: writes.moveStatus,
  };
}

export type DeliveryStatusRepository = ReturnType<typeof createDeliveryStatusRepository>;
