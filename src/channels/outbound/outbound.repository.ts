import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { conversations, messages } from '../../core/db/schema/index.js';

export type OutboundMessageRow = typeof messages.$inferSelect;

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

/** What the outbound worker reads and writes on `messages`. */
export function createOutboundRepository(db: Database) {
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
     * later replies need not wait for it (`earlierUnsent` leaves it out).
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
    ): Promise<OutboundMessageRow | null> {
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
  };
}

export type OutboundRepository = ReturnType<typeof createOutboundRepository>;
