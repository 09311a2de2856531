import type { Static } from 'typebox';
import type { AuditWriter } from '../../core/audit/audit-hook.js';
import { auditText, redactSecrets } from '../../core/audit/redact.js';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import { AppError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { ReplyFeedbackEntry } from '../feedback/feedback.schemas.js';
import type { ApprovalDecisions, Decision } from './approval-decisions.js';
import type { NotCountedReason } from './approval-trust.js';
import type { ApprovalListRow, ApprovalRow, ApprovalsRepository } from './approvals.repository.js';
import type { ApprovalStatus } from './approvals.schemas.js';

/** Where a request came from, for the audit entries the service writes itself (batch). */
export interface RequestMeta {
  ipAddress: string | null;
  userAgent: string | null;
}

export type BatchDecision =
  | { approvalId: string; action: 'approve'; editedContent?: string; reason?: string }
  | { approvalId: string; action: 'reject'; editedContent?: string; reason?: string };

export type BatchResultItem =
  | { approvalId: string; status: 'success' }
  | { approvalId: string; status: 'error'; error: string; message: string };

interface StoredSource {
  chunkId: string;
  documentId: string;
  title: string;
  score: number;
}

/** `{ counted, reason? }` once the decision touched trust; null before (and for escalations). */
function trustOf(a: ApprovalRow) {
  if (a.trustCounted === null) return null;
  return a.trustCounted
    ? { counted: true }
    : { counted: false, reason: (a.trustReason ?? 'no_grounded_answer') as NotCountedReason };
}

function toApproval(row: ApprovalListRow) {
  const a = row.approval;
  return {
    id: a.id,
    status: a.status as ApprovalStatus,
    departmentId: a.departmentId,
    namespaceId: a.namespaceId,
    conversationId: a.conversationId,
    taskId: a.taskId,
    messageId: a.messageId,
    channel: row.channel,
    sender: { id: row.senderId, name: row.senderName },
    question: row.question,
    originalContent: a.originalContent,
    editedContent: a.editedContent,
    reason: a.reason,
    intent: a.intent,
    confidence: a.confidence,
    reasons: a.triggers,
    escalatedToId: a.escalatedToId,
    escalatedToRole: a.escalatedToRole,
    decidedById: a.decidedById,
    decidedAt: iso(a.decidedAt),
    trust: trustOf(a),
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

function isSource(value: unknown): value is StoredSource {
  const s = value as StoredSource;
  return (
    typeof s === 'object' && s !== null && typeof s.chunkId === 'string' && typeof s.documentId === 'string'
  );
}

/**
 * The HITL queue: approvers list and read the replies waiting for them and
 * decide them. Decisions themselves live in approval-decisions.ts.
 */
export function createApprovalsService(deps: {
  approvals: ApprovalsRepository;
  decisions: ApprovalDecisions;
  audit: AuditWriter;
  logger: { error(object: object, message?: string): void };
  /** The ratings of the reply an approval released (modules/feedback); none when not given. */
  feedbackOf?: (approvalId: string) => Promise<Static<typeof ReplyFeedbackEntry>[]>;
}) {
  const { approvals, decisions, audit, logger } = deps;

  async function decided(actor: Actor, id: string, decision: Decision) {
    const row: ApprovalRow = await decisions.decide(actor, id, decision);
    const listed = await approvals.findById(row.id);
    return toApproval(listed!);
  }

  return {
    /**
     * Approvals of the actor's departments (narrowed by the filters), oldest first; `pending` unless `status` is given.
     * @throws ForbiddenError when `departmentId` is outside the actor's departments.
     */
    async list(
      actor: Actor,
      query: {
        status?: ApprovalStatus;
        departmentId?: string;
        namespaceId?: string;
        intent?: string;
        reason?: string;
        limit?: number;
        offset?: number;
      },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await approvals.list(
        departmentScope(actor, query.departmentId),
        {
          status: query.status ?? 'pending',
          ...(query.namespaceId ? { namespaceId: query.namespaceId } : {}),
          ...(query.intent ? { intent: query.intent } : {}),
          ...(query.reason ? { reason: query.reason } : {}),
        },
        { limit, offset },
      );
      return { items: rows.map(toApproval), total, limit, offset };
    },

    /**
     * One approval with what the reviewer needs: the sources with their chunk
     * text, the conversation context and the decision history (its audit entries).
     * @throws NotFoundError when it is missing or outside the actor's departments.
     */
    async get(actor: Actor, id: string) {
      const row = assertVisible(
        actor,
        await approvals.findById(id),
        (r) => r.approval.departmentId,
        `Approval ${id} not found`,
      );
      const stored = row.approval.sources.filter(isSource);
      const texts = new Map(
        (await approvals.chunkTexts(stored.map((s) => s.chunkId))).map((c) => [c.chunkId, c]),
      );
      const history = await approvals.history(id);
      return {
        ...toApproval(row),
        sources: stored.map((s) => ({
          chunkId: s.chunkId,
          documentId: s.documentId,
          title: texts.get(s.chunkId)?.title ?? s.title,
          score: s.score,
          content: texts.get(s.chunkId)?.content ?? null,
        })),
        context: row.approval.context,
        history: history.map((h) => ({ ...h, createdAt: iso(h.createdAt) })),
        feedback: (await deps.feedbackOf?.(id)) ?? [],
      };
    },

    /**
     * Approves: plain → `approved` and the intent's successfulCount + 1;
     * with `editedContent` → `edited`, the edited text is delivered and
     * nothing is counted. The reply is written as an outbound message in the
     * same transaction (channel jobs after the commit) and the conversation
     * returns to `open` when nothing else waits.
     * @throws NotFoundError, ConflictError, ForbiddenError as {@link ApprovalDecisions.decide}.
     */
    approve(actor: Actor, id: string, body: { editedContent?: string }) {
      return decided(actor, id, {
        action: 'approve',
        ...(body.editedContent !== undefined ? { editedContent: body.editedContent } : {}),
      });
    },

    /**
     * Rejects: `rejected` with the reason; nothing is sent.
     * @throws NotFoundError, ConflictError, ForbiddenError as {@link ApprovalDecisions.decide}.
     */
    reject(actor: Actor, id: string, body: { reason?: string }) {
      return decided(actor, id, { action: 'reject', ...(body.reason ? { reason: body.reason } : {}) });
    },

    /**
     * Escalates to another active approver of the department, who gets an
     * `approval_pending` notification and may then decide it.
     * @throws ValidationError when the target is the actor, inactive, or no approver of the department.
     * @throws NotFoundError, ConflictError, ForbiddenError as {@link ApprovalDecisions.decide}.
     */
    escalate(actor: Actor, id: string, body: { escalatedToId: string; reason?: string }) {
      return decided(actor, id, {
        action: 'escalate',
        escalatedToId: body.escalatedToId,
        ...(body.reason ? { reason: body.reason } : {}),
      });
    },

    /**
     * Decides each entry on its own, in order: one failing decision never
     * undoes or stops another. Each success writes its own audit entry
     * (action approve or reject, `changes` the decision).
     */
    async batch(
      actor: Actor,
      decisionsIn: BatchDecision[],
      meta: RequestMeta,
    ): Promise<{ results: BatchResultItem[] }> {
      const results: BatchResultItem[] = [];
      for (const item of decisionsIn) {
        const decision: Decision =
          item.action === 'approve'
            ? {
                action: 'approve',
                ...(item.editedContent !== undefined ? { editedContent: item.editedContent } : {}),
              }
            : { action: 'reject', ...(item.reason ? { reason: item.reason } : {}) };
        try {
          await decisions.decide(actor, item.approvalId, decision);
        } catch (error) {
          if (!(error instanceof AppError)) {
            logger.error({ err: error, approvalId: item.approvalId }, 'approvals: a batch decision failed');
          }
          results.push({
            approvalId: item.approvalId,
            status: 'error',
            error: error instanceof AppError ? error.name : 'InternalServerError',
            message: error instanceof AppError ? error.message : 'The decision failed unexpectedly',
          });
          continue;
        }
        results.push({ approvalId: item.approvalId, status: 'success' });
        await audit.record({
          userId: actor.kind === 'user' ? actor.userId : null,
          action: item.action,
          entityType: 'approvals',
          entityId: item.approvalId,
          // The same treatment the audit hook gives a request body: storable, secrets redacted.
          changes: redactSecrets({ ...decision, batch: true }),
          ipAddress: meta.ipAddress ? auditText(meta.ipAddress, 64) : null,
          userAgent: meta.userAgent ? auditText(meta.userAgent, 512) : null,
        });
      }
      return { results };
    },
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
