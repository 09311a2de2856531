import { and, asc, count, eq, inArray, isNotNull, isNull, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import {
  approvals,
  auditLogs,
  chunks,
  conversations,
  documents,
  intentTrust,
  messages,
  namespaces,
  users,
} from '../../core/db/schema/index.js';

/**
 * The only file that writes `approvals` (a test checks it): the
 * repository's methods, and the part of the pipeline's decision statement
 * that writes the approval ({@link approvalInsertCte}).
 */

export type ApprovalRow = typeof approvals.$inferSelect;
export type NewApproval = typeof approvals.$inferInsert;
export type IntentTrustRow = typeof intentTrust.$inferSelect;

/** An approval with the employee the reply is for (the conversation's user). */
export interface ApprovalListRow {
  approval: ApprovalRow;
  senderId: string;
  senderName: string;
  channel: string;
  /** The employee's message the reply answers (its text as stored), null when there is none. */
  question: string | null;
}

export interface ApprovalFilters {
  status: string;
  namespaceId?: string;
  intent?: string;
  /** A HITL reason type (`low_confidence`, `first_interaction`, …) the approval's triggers must hold. */
  reason?: string;
}

const sender = alias(users, 'sender');
/** The statuses of an approval still waiting for a decision. */
const WAITING = ['pending', 'escalated'];
const asked = alias(messages, 'asked');

/**
 * The CTE `approval`: the approval of the task the CTE `task` ended
 * (`pending`, or `escalated` to a role), answering its id and status;
 * no row when that CTE has none (the task was finished already).
 */
export function approvalInsertCte(approval: NewApproval & { id: string; conversationId: string }): SQL {
  return sql`approval AS (
      INSERT INTO approvals (id, task_id, conversation_id, message_id, department_id, namespace_id, status,
        original_content, intent, confidence, triggers, sources, context, escalated_to_id, escalated_to_role)
      SELECT ${approval.id}::uuid, task.id, ${approval.conversationId}::uuid, ${approval.messageId ?? null}::uuid,
        ${approval.departmentId}::uuid, ${approval.namespaceId ?? null}::uuid, ${approval.status ?? 'pending'},
        ${approval.originalContent}, ${approval.intent ?? null}, ${approval.confidence ?? 0}::float8,
        ${JSON.stringify(approval.triggers ?? [])}::jsonb, ${JSON.stringify(approval.sources ?? [])}::jsonb,
        ${JSON.stringify(approval.context ?? {})}::jsonb, ${approval.escalatedToId ?? null}::uuid,
        ${approval.escalatedToRole ?? null}
      FROM task
      RETURNING id, status
    )`;
}

/** Approvals (the HITL queue), their sources and history, and the trust counters a decision moves. */
export function createApprovalsRepository(db: Database) {
  const listColumns = {
    approval: approvals,
    senderId: sender.id,
    senderName: sender.name,
    channel: conversations.channel,
    question: asked.content,
  };

  return {
    /** A page of approvals in the scope, oldest first (the reply that waited longest comes first). */
    async list(
      scope: DepartmentScope,
      filters: ApprovalFilters,
      page: { limit: number; offset: number },
      tx: DbExecutor = db,
    ): Promise<{ rows: ApprovalListRow[]; total: number }> {
      const where = and(
        scopeCondition(scope, approvals.departmentId),
        eq(approvals.status, filters.status),
        filters.namespaceId ? eq(approvals.namespaceId, filters.namespaceId) : undefined,
        filters.intent ? eq(approvals.intent, filters.intent) : undefined,
        filters.reason
          ? sql`${approvals.triggers} @> ${JSON.stringify([{ type: filters.reason }])}::jsonb`
          : undefined,
      );
      const rows = await tx
        .select(listColumns)
        .from(approvals)
        .innerJoin(conversations, eq(conversations.id, approvals.conversationId))
        .innerJoin(sender, eq(sender.id, conversations.userId))
        .leftJoin(asked, eq(asked.id, approvals.messageId))
        .where(where)
        .orderBy(asc(approvals.createdAt), asc(approvals.id))
        .limit(page.limit)
        .offset(page.offset);
      const [counted] = await tx.select({ total: count() }).from(approvals).where(where);
      return { rows, total: counted?.total ?? 0 };
    },

    async findById(id: string, tx: DbExecutor = db): Promise<ApprovalListRow | null> {
      const [row] = await tx
        .select(listColumns)
        .from(approvals)
        .innerJoin(conversations, eq(conversations.id, approvals.conversationId))
        .innerJoin(sender, eq(sender.id, conversations.userId))
        .leftJoin(asked, eq(asked.id, approvals.messageId))
        .where(eq(approvals.id, id));
      return row ?? null;
    },

    /**
     * Reads the approval and locks its row until the transaction ends
     * (SELECT … FOR UPDATE): a second decision on it waits, then sees the
     * first one's status.
     */
    /** The approval a task's decision wrote, if any. */
    async findOfTask(taskId: string, tx: DbExecutor = db): Promise<ApprovalRow | null> {
      const [row] = await tx.select().from(approvals).where(eq(approvals.taskId, taskId)).limit(1);
      return row ?? null;
    },

    async lock(id: string, tx: DbExecutor): Promise<ApprovalRow | null> {
      const [row] = await tx.select().from(approvals).where(eq(approvals.id, id)).for('update');
      return row ?? null;
    },

    async update(
      id: string,
      patch: Partial<typeof approvals.$inferInsert>,
      tx: DbExecutor,
    ): Promise<ApprovalRow> {
      const [row] = await tx
        .update(approvals)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(approvals.id, id))
        .returning();
      return row!;
    },

    /** The text and document of the chunks an approval cites (chunks deleted since are absent). */
    async chunkTexts(chunkIds: string[], tx: DbExecutor = db) {
      if (chunkIds.length === 0) return [];
      return tx
        .select({
          chunkId: chunks.id,
          content: chunks.content,
          documentId: chunks.documentId,
          title: documents.title,
        })
        .from(chunks)
        .innerJoin(documents, eq(documents.id, chunks.documentId))
        .where(inArray(chunks.id, chunkIds));
    },

    /** The audit entries of one approval, oldest first, with the actor's name. */
    async history(approvalId: string, tx: DbExecutor = db) {
      return tx
        .select({
          action: auditLogs.action,
          userId: auditLogs.userId,
          userName: users.name,
          changes: auditLogs.changes,
          createdAt: auditLogs.createdAt,
        })
        .from(auditLogs)
        .leftJoin(users, eq(users.id, auditLogs.userId))
        .where(and(eq(auditLogs.entityType, 'approvals'), eq(auditLogs.entityId, approvalId)))
        .orderBy(asc(auditLogs.createdAt), asc(auditLogs.id))
        .limit(100);
    },

    async namespaceConfig(namespaceId: string, tx: DbExecutor = db): Promise<Record<string, unknown> | null> {
      const [row] = await tx
        .select({ config: namespaces.config })
        .from(namespaces)
        .where(eq(namespaces.id, namespaceId));
      return row?.config ?? null;
    },

    async findUser(id: string, tx: DbExecutor = db) {
      const [row] = await tx
        .select({ id: users.id, isActive: users.isActive })
        .from(users)
        .where(eq(users.id, id));
      return row ?? null;
    },

    /**
     * Pending approvals older than their namespace's `config.approvalSlaMinutes`
     * at `now`, oldest first, at most `limit`.
     */
    async overdue(now: Date, limit: number, tx: DbExecutor = db) {
      const minutes = sql`(${namespaces.config} ->> 'approvalSlaMinutes')::integer`;
      return tx
        .select({ id: approvals.id, minutes: sql<number>`${minutes}` })
        .from(approvals)
        .innerJoin(namespaces, eq(namespaces.id, approvals.namespaceId))
        .where(
          and(
            eq(approvals.status, 'pending'),
            isNotNull(sql`${namespaces.config} -> 'approvalSlaMinutes'`),
            lt(
              approvals.createdAt,
              sql`${now.toISOString()}::timestamptz - make_interval(mins => ${minutes})`,
            ),
          ),
        )
        .orderBy(asc(approvals.createdAt))
        .limit(limit);
    },

    /** Escalates one approval if it is still pending (the sweep's guard); null when it no longer is. */
    async escalateIfPending(
      id: string,
      patch: { escalatedToRole: string; reason: string },
      tx: DbExecutor,
    ): Promise<ApprovalRow | null> {
      const [row] = await tx
        .update(approvals)
        .set({ status: 'escalated', escalatedToId: null, ...patch, updatedAt: new Date() })
        .where(and(eq(approvals.id, id), eq(approvals.status, 'pending')))
        .returning();
      return row ?? null;
    },

    /**
     * Waiting approvals (pending, escalated) of open conversations that have waited their namespace's
     * `config.holdingReply.afterMinutes` at `now` without a holding reply, oldest first, with what
     * the message is made of.
     */
    async holdingReplyDue(now: Date, limit: number, tx: DbExecutor = db) {
      const setting = sql`${namespaces.config} -> 'holdingReply'`;
      const after = sql`make_interval(mins => (${setting} ->> 'afterMinutes')::integer)`;
      return tx
        .select({
          id: approvals.id,
          config: namespaces.config,
          employeeLanguage: sender.language,
          context: approvals.context,
          question: asked.content,
        })
        .from(approvals)
        .innerJoin(namespaces, eq(namespaces.id, approvals.namespaceId))
        .innerJoin(conversations, eq(conversations.id, approvals.conversationId))
        .innerJoin(sender, eq(sender.id, conversations.userId))
        .leftJoin(asked, eq(asked.id, approvals.messageId))
        .where(
          and(
            inArray(approvals.status, WAITING),
            isNull(approvals.holdingReplyAt),
            ne(conversations.status, 'closed'),
            sql`jsonb_typeof(${setting}) = 'object'`,
            lte(approvals.createdAt, sql`${now.toISOString()}::timestamptz - ${after}`),
          ),
        )
        .orderBy(asc(approvals.createdAt), asc(approvals.id))
        .limit(limit);
    },

    /** Marks the holding reply sent if the approval still waits without one; the UPDATE holds the row lock. */
    async claimHoldingReply(id: string, at: Date, tx: DbExecutor): Promise<ApprovalRow | null> {
      const [row] = await tx
        .update(approvals)
        .set({ holdingReplyAt: at })
        .where(
          and(eq(approvals.id, id), inArray(approvals.status, WAITING), isNull(approvals.holdingReplyAt)),
        )
        .returning();
      return row ?? null;
    },

    /** Demotion bookkeeping: a plain approval ends a run of failures. */
    async resetFailures(namespaceId: string, intentName: string, tx: DbExecutor): Promise<void> {
      await tx.update(intentTrust).set({ consecutiveFailures: 0 }).where(trustKey(namespaceId, intentName));
    },

    /**
     * One more rejection or edit of the intent while it is autonomous;
     * answers the updated record, or null when the intent is not autonomous
     * (nothing counted).
     */
    async countFailure(
      namespaceId: string,
      intentName: string,
      tx: DbExecutor,
    ): Promise<IntentTrustRow | null> {
      const [row] = await tx
        .update(intentTrust)
        .set({ consecutiveFailures: sql`${intentTrust.consecutiveFailures} + 1`, updatedAt: new Date() })
        .where(and(trustKey(namespaceId, intentName), eq(intentTrust.isAutonomous, true)))
        .returning();
      return row ?? null;
    },
  };
}

function trustKey(namespaceId: string, intentName: string): SQL | undefined {
  return and(eq(intentTrust.namespaceId, namespaceId), eq(intentTrust.intentName, intentName));
}

export type ApprovalsRepository = ReturnType<typeof createApprovalsRepository>;
