import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../core/db/client.js';
import { messages } from '../../core/db/schema/index.js';

export type OutboundMessageRow = typeof messages.$inferSelect;

/**
 * The outbound channel A messages that receipts update. The sender stores
 * the platform id of each part it sent: `channel_message_id` holds the last
 * part's (indexed), `metadata.platformMessageIds` all of them.
 */
export function createDeliveryStatusRepository(db: Database) {
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
    ): Promise<OutboundMessageRow | null> {
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

export type DeliveryStatusRepository = ReturnType<typeof createDeliveryStatusRepository>;
