import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../core/db/client.js';
import { approvalChatRequests } from '../../core/db/schema/index.js';
import type { ApprovalChannel } from './chat-ports.js';

/** The only file that writes `approval_chat_requests`. */

export type ChatRequestRow = typeof approvalChatRequests.$inferSelect;

/** A request with what its message says: the approval, the employee's question, the recipient. */
export interface ChatRequestDetail {
  request: ChatRequestRow;
  approval: {
    id: string;
    status: string;
    departmentId: string;
    originalContent: string;
    confidence: number;
    triggers: Array<{ type: string }>;
    escalatedToId: string | null;
    decidedById: string | null;
    decidedAt: Date | null;
    reason: string | null;
    updatedAt: Date;
  };
  employeeName: string;
  question: string | null;
  recipientLanguage: string | null;
  decidedByName: string | null;
  escalatedToName: string | null;
}

/** Notifications older than this get no request: the approver would see them in the console first. */
const MATERIALIZE_WINDOW_MS = 60 * 60_000;
const CLAIM_BATCH = 20;
const SENDING_LEASE_MS = 60_000;

const WAITING = ['pending', 'escalated'];

export function createChatApprovalsRepository(db: Database) {
  const table = approvalChatRequests;

  return {
    /**
     * Writes one queued request per `approval_pending` notification about a still-undecided approval
     * (of the last hour, at or after `since`) and per channel its active recipient turned chat
     * approvals on for and has an identity on; answers how many were new.
     */
    async materialize(now: Date): Promise<number> {
      const since = new Date(now.getTime() - MATERIALIZE_WINDOW_MS).toISOString();
      const result = await db.execute(sql`
        INSERT INTO approval_chat_requests (approval_id, notification_id, user_id, channel, address)
        SELECT a.id, n.id, n.user_id, ci.channel, ci.channel_user_id
        FROM users u
        JOIN notifications n ON n.user_id = u.id
        JOIN channel_identities ci ON ci.user_id = u.id AND ci.channel = ANY(u.approval_channels)
        JOIN approvals a ON a.id::text = n.entity_id AND a.status IN ('pending', 'escalated')
        -- Few users opt in: from them, their recent notifications are found by (user_id, created_at).
        WHERE u.is_active AND cardinality(u.approval_channels) > 0
          AND n.type = 'approval_pending' AND n.entity_type = 'approval'
          AND n.created_at > ${since}::timestamptz
          AND NOT EXISTS (SELECT 1 FROM approval_chat_requests r WHERE r.notification_id = n.id AND r.channel = ci.channel)
        ON CONFLICT (notification_id, channel) DO NOTHING
        RETURNING id`);
      return rowsOf(result).length;
    },

    /**
     * Takes up to 20 requests to send (queued and due, or left `sending` by a process that stopped),
     * marking them `sending` for a minute; oldest first.
     */
    async claimQueued(now: Date): Promise<ChatRequestRow[]> {
      const lease = new Date(now.getTime() + SENDING_LEASE_MS).toISOString();
      const at = now.toISOString();
      const result = await db.execute(sql`
        UPDATE approval_chat_requests SET status = 'sending', lease_until = ${lease}::timestamptz, updated_at = now()
        WHERE id IN (
          SELECT id FROM approval_chat_requests
          WHERE (status = 'queued' AND (lease_until IS NULL OR lease_until <= ${at}::timestamptz))
             OR (status = 'sending' AND lease_until <= ${at}::timestamptz)
          ORDER BY created_at LIMIT ${CLAIM_BATCH}
          FOR UPDATE SKIP LOCKED)
        RETURNING id`);
      const ids = rowsOf<{ id: string }>(result).map((r) => r.id);
      if (ids.length === 0) return [];
      const rows = await db.select().from(table).where(inArray(table.id, ids));
      return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },

    /** One request with its approval, the employee's question and the names its texts need. */
    async detail(id: string): Promise<ChatRequestDetail | null> {
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          SELECT r.id AS "requestId", a.id, a.status, a.department_id AS "departmentId",
            a.original_content AS "originalContent", a.confidence, a.triggers,
            a.escalated_to_id AS "escalatedToId", a.decided_by_id AS "decidedById",
            a.decided_at AS "decidedAt", a.reason, a.updated_at AS "updatedAt",
            employee.name AS "employeeName", asked.content AS question,
            recipient.language AS "recipientLanguage", decider.name AS "decidedByName",
            target.name AS "escalatedToName"
          FROM approval_chat_requests r
          JOIN approvals a ON a.id = r.approval_id
          JOIN conversations c ON c.id = a.conversation_id
          JOIN users employee ON employee.id = c.user_id
          LEFT JOIN messages asked ON asked.id = a.message_id
          LEFT JOIN users recipient ON recipient.id = r.user_id
          LEFT JOIN users decider ON decider.id = a.decided_by_id
          LEFT JOIN users target ON target.id = a.escalated_to_id
          WHERE r.id = ${id}`),
      );
      const row = rows[0];
      if (!row) return null;
      const [request] = await db.select().from(table).where(eq(table.id, id));
      if (!request) return null;
      const date = (value: unknown) =>
        value === null || value === undefined ? null : new Date(value as string);
      return {
        request,
        approval: {
          id: row.id as string,
          status: row.status as string,
          departmentId: row.departmentId as string,
          originalContent: row.originalContent as string,
          confidence: Number(row.confidence),
          triggers: (typeof row.triggers === 'string' ? JSON.parse(row.triggers) : row.triggers) as Array<{
            type: string;
          }>,
          escalatedToId: (row.escalatedToId as string | null) ?? null,
          decidedById: (row.decidedById as string | null) ?? null,
          decidedAt: date(row.decidedAt),
          reason: (row.reason as string | null) ?? null,
          updatedAt: date(row.updatedAt) ?? new Date(0),
        },
        employeeName: row.employeeName as string,
        question: (row.question as string | null) ?? null,
        recipientLanguage: (row.recipientLanguage as string | null) ?? null,
        decidedByName: (row.decidedByName as string | null) ?? null,
        escalatedToName: (row.escalatedToName as string | null) ?? null,
      };
    },

    /** Sets a request's status (and what came with it). */
    async update(
      id: string,
      patch: Partial<
        Pick<
          ChatRequestRow,
          | 'status'
          | 'platformMessageId'
          | 'sentAt'
          | 'error'
          | 'leaseUntil'
          | 'outcome'
          | 'awaiting'
          | 'awaitingUntil'
          | 'escalationChoices'
        >
      >,
    ): Promise<void> {
      await db.update(table).set(patch).where(eq(table.id, id));
    },

    /** Messages sent to `userId` on `channel` since `since`: requests, invitations, and each digest once. */
    async sentSince(userId: string, channel: ApprovalChannel, since: Date): Promise<number> {
      const rows = rowsOf<{ n: number | string }>(
        await db.execute(sql`SELECT count(*) FILTER (WHERE status IN ('sent', 'invited'))
              + count(DISTINCT sent_at) FILTER (WHERE status = 'digested') AS n
          FROM approval_chat_requests
          WHERE user_id = ${userId} AND channel = ${channel} AND sent_at > ${since.toISOString()}::timestamptz`),
      );
      return Number(rows[0]?.n ?? 0);
    },

    /** Whether `userId` has requests on `channel` held for a digest. */
    async hasHeld(userId: string, channel: ApprovalChannel): Promise<boolean> {
      const [row] = await db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.userId, userId), eq(table.channel, channel), eq(table.status, 'held')))
        .limit(1);
      return row !== undefined;
    },

    /** The recipients (user and channel) with requests held for a digest, and their addresses. */
    async heldRecipients(): Promise<Array<{ userId: string; channel: ApprovalChannel; address: string }>> {
      return rowsOf(
        await db.execute(sql`SELECT user_id AS "userId", channel, max(address) AS address
          FROM approval_chat_requests WHERE status = 'held' GROUP BY user_id, channel`),
      );
    },

    /**
     * Marks `userId`'s held requests on `channel` digested at `sentAt`; answers how many of them are
     * about approvals still waiting (the digest's count).
     */
    async digest(userId: string, channel: ApprovalChannel, sentAt: Date): Promise<number> {
      const rows = rowsOf<{ status: string }>(
        await db.execute(sql`UPDATE approval_chat_requests r SET status = 'digested', sent_at = ${sentAt.toISOString()}::timestamptz,
            updated_at = now()
          FROM approvals a
          WHERE a.id = r.approval_id AND r.user_id = ${userId} AND r.channel = ${channel} AND r.status = 'held'
          RETURNING a.status`),
      );
      return rows.filter((r) => WAITING.includes(r.status)).length;
    },

    /** The copies sent of decided approvals whose outcome is not shown yet (and escalated ones, to others). */
    async outcomesDue(): Promise<ChatRequestRow[]> {
      const rows = rowsOf<{ id: string }>(
        await db.execute(sql`SELECT r.id FROM approval_chat_requests r JOIN approvals a ON a.id = r.approval_id
          WHERE r.status = 'sent' AND r.outcome IS NULL AND r.platform_message_id IS NOT NULL
            AND (a.status NOT IN ('pending', 'escalated')
              OR (a.status = 'escalated' AND a.escalated_to_id IS NOT NULL AND a.escalated_to_id <> r.user_id
                  AND r.created_at < a.updated_at))
          ORDER BY r.created_at LIMIT ${CLAIM_BATCH}`),
      );
      if (rows.length === 0) return [];
      return db
        .select()
        .from(table)
        .where(
          inArray(
            table.id,
            rows.map((r) => r.id),
          ),
        );
    },

    /**
     * Records `outcome` on a copy that shows none yet; answers whether it did. An edit or reason it
     * awaited stays awaited: the approver's text is then answered "already decided" instead of
     * reaching the assistant as a question.
     */
    async claimOutcome(id: string, outcome: string): Promise<boolean> {
      const rows = await db
        .update(table)
        .set({ outcome })
        .where(and(eq(table.id, id), sql`${table.outcome} IS NULL`))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    /** The request a token names. */
    async find(id: string): Promise<ChatRequestRow | null> {
      const [row] = await db.select().from(table).where(eq(table.id, id));
      return row ?? null;
    },

    /** The request of `userId` on `channel` awaiting an answer at `now`, if any. */
    async awaitingOf(userId: string, channel: ApprovalChannel, now: Date): Promise<ChatRequestRow | null> {
      const [row] = await db
        .select()
        .from(table)
        .where(
          and(
            eq(table.userId, userId),
            eq(table.channel, channel),
            gt(table.awaitingUntil, now),
            sql`${table.awaiting} IS NOT NULL`,
          ),
        )
        .orderBy(sql`${table.awaitingUntil} DESC`)
        .limit(1);
      return row ?? null;
    },

    /** Clears whatever `userId`'s requests on `channel` awaited. */
    async clearAwaiting(userId: string, channel: ApprovalChannel): Promise<void> {
      await db
        .update(table)
        .set({ awaiting: null, awaitingUntil: null })
        .where(and(eq(table.userId, userId), eq(table.channel, channel), sql`${table.awaiting} IS NOT NULL`));
    },

    /** Queues again the invitations `userId` had on `channel` (channel A: they wrote, the window is open). */
    async requeueInvited(userId: string, channel: ApprovalChannel): Promise<number> {
      const rows = await db
        .update(table)
        .set({ status: 'queued', leaseUntil: null, sentAt: null })
        .where(and(eq(table.userId, userId), eq(table.channel, channel), eq(table.status, 'invited')))
        .returning({ id: table.id });
      return rows.length;
    },

    /** The user a channel's sender is linked to, with their display name; null for a stranger. */
    async userOfSender(channel: ApprovalChannel, senderId: string): Promise<string | null> {
      const rows = rowsOf<{ userId: string }>(
        await db.execute(sql`SELECT user_id AS "userId" FROM channel_identities
          WHERE channel = ${channel} AND channel_user_id = ${senderId}`),
      );
      return rows[0]?.userId ?? null;
    },

    /** A user's stored language (en, uk, ru), null when unset or gone. */
    async languageOf(userId: string): Promise<string | null> {
      const rows = rowsOf<{ language: string | null }>(
        await db.execute(sql`SELECT language FROM users WHERE id = ${userId}`),
      );
      return rows[0]?.language ?? null;
    },

    /** Names of `ids`, in their order (users gone are left out). */
    async names(ids: string[]): Promise<Array<{ id: string; name: string }>> {
      if (ids.length === 0) return [];
      const rows = rowsOf<{ id: string; name: string }>(
        await db.execute(sql`SELECT id, name FROM users WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[])`),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    },
  };
}

export type ChatApprovalsRepository = ReturnType<typeof createChatApprovalsRepository>;
