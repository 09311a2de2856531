import type { AfterCommit } from '../../core/after-commit.js';
import type { AuditEntryInput } from '../../core/audit/audit-hook.js';
import type { Actor } from '../../core/auth/actor.js';
import { canAccessDepartment } from '../../core/auth/department-scope.js';
import { DEPARTMENT_HEAD_ROLE } from '../../core/auth/permissions.js';
import type { Database, Transaction } from '../../core/db/client.js';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../core/errors/app-errors.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { IntentTrustRepository } from '../intents/intent-trust.repository.js';
import { notificationTexts } from '../notifications/notification-texts.js';
import type { NotificationsRepository } from '../notifications/notifications.repository.js';
import type { Recipients } from '../notifications/recipients.js';
import type { ReplyRelease } from './approval-ports.js';
import { type ApprovalTrust, trustVerdict } from './approval-trust.js';
import type { ApprovalRow, ApprovalsRepository } from './approvals.repository.js';

export type Decision =
  | { action: 'approve'; editedContent?: string }
  | { action: 'reject'; reason?: string }
  | { action: 'escalate'; escalatedToId: string; reason?: string };

/**
 * What an edit teaches (the learning module): `prepare` runs before the decision's transaction
 * (it may call the embedder), `recordEdit` inside it, so a committed edit always has its suggestions.
 */
export interface EditLearning<Prepared = unknown> {
  prepare(approval: ApprovalRow): Promise<Prepared>;
  recordEdit(
    tx: Transaction,
    approval: ApprovalRow,
    editedContent: string,
    prepared: Prepared,
  ): Promise<void>;
}

/** Who may decide an escalated approval besides global users: its addressee, its role, department heads. */
export function mayDecideEscalated(actor: Actor, approval: ApprovalRow): boolean {
  return (
    actor.isGlobal ||
    actor.roleSlug === DEPARTMENT_HEAD_ROLE ||
    approval.escalatedToId === actor.userId ||
    (approval.escalatedToRole !== null && approval.escalatedToRole === actor.roleSlug)
  );
}

/**
 * One decision on one approval, in one transaction: the row is locked
 * first (SELECT … FOR UPDATE), so of two deciders at the same moment the
 * second sees the first's status and gets a ConflictError; the reply is
 * written once. Outbound jobs and notification events are published after
 * the commit; domain audit entries (demotion, batch) follow them.
 */
export function createApprovalDecisions(deps: {
  db: Database;
  approvals: ApprovalsRepository;
  conversations: Pick<ConversationsRepository, 'findConversation' | 'refreshStatus'>;
  release: ReplyRelease;
  notifications: Pick<NotificationsRepository, 'insertLocalised'>;
  interactions: Pick<IntentTrustRepository, 'recordInteraction'>;
  recipients: Recipients;
  trust: ApprovalTrust;
  audit: { record(entry: AuditEntryInput): Promise<void> };
  /** Told of every decision after its commit (namespace plugins' approval events); must not throw. */
  onDecided?: (approval: ApprovalRow) => void;
  learning?: EditLearning;
}) {
  const { db, approvals, conversations, release, notifications, interactions, recipients, trust, audit } =
    deps;

  async function lockDecidable(tx: Transaction, actor: Actor, id: string): Promise<ApprovalRow> {
    const row = await approvals.lock(id, tx);
    if (!row || !canAccessDepartment(actor, row.departmentId))
      throw new NotFoundError(`Approval ${id} not found`);
    if (row.status !== 'pending' && row.status !== 'escalated') {
      throw new ConflictError(`Approval ${id} is already ${row.status}`);
    }
    if (row.status === 'escalated' && !mayDecideEscalated(actor, row)) {
      throw new ForbiddenError(`Approval ${id} is escalated to someone else`);
    }
    return row;
  }

  async function checkEscalationTarget(tx: Transaction, actor: Actor, row: ApprovalRow, targetId: string) {
    const invalid = (message: string) =>
      new ValidationError([{ field: 'body.escalatedToId', message }], message);
    if (targetId === actor.userId) throw invalid('You cannot escalate an approval to yourself');
    const target = await approvals.findUser(targetId, tx);
    if (!target?.isActive) throw invalid(`User ${targetId} does not exist or is inactive`);
    const approvers = await recipients.withPermission(row.departmentId, 'canApprove', { tx });
    if (!approvers.includes(targetId)) {
      throw invalid(`User ${targetId} may not approve in the department of this conversation`);
    }
  }

  async function apply(
    tx: Transaction,
    actor: Actor,
    row: ApprovalRow,
    decision: Decision,
    prepared: unknown,
  ) {
    const effects: AfterCommit = { jobs: [], notifications: [] };
    const later: AuditEntryInput[] = [];
    const decided = { decidedById: actor.kind === 'user' ? actor.userId : null, decidedAt: new Date() };
    let updated: ApprovalRow;
    if (decision.action === 'approve') {
      const edited = decision.editedContent !== undefined;
      updated = await approvals.update(
        row.id,
        {
          status: edited ? 'edited' : 'approved',
          editedContent: decision.editedContent ?? null,
          ...decided,
          ...trustVerdict(row, edited ? 'edited' : 'approved'),
        },
        tx,
      );
      const conversation = await conversations.findConversation(row.conversationId, tx);
      if (!conversation) throw new NotFoundError(`Approval ${row.id} not found`);
      const sent = await release.deliverReply(tx, {
        conversation,
        taskId: row.taskId,
        approvalId: row.id,
        content: decision.editedContent ?? row.originalContent,
      });
      effects.jobs.push(...sent.effects.jobs);
      effects.notifications.push(...sent.effects.notifications);
      if (row.namespaceId && row.intent) {
        await interactions.recordInteraction(conversation.userId, row.namespaceId, row.intent, tx);
      }
      const moved = await trust.afterDecision(tx, row, edited ? 'edited' : 'approved', decided.decidedById);
      effects.notifications.push(...moved.notifications);
      later.push(...moved.audit);
      if (decision.editedContent !== undefined && deps.learning) {
        await deps.learning.recordEdit(tx, row, decision.editedContent, prepared);
      }
    } else if (decision.action === 'reject') {
      updated = await approvals.update(
        row.id,
        { status: 'rejected', reason: decision.reason ?? null, ...decided, ...trustVerdict(row, 'rejected') },
        tx,
      );
      const moved = await trust.afterDecision(tx, row, 'rejected', decided.decidedById);
      effects.notifications.push(...moved.notifications);
      later.push(...moved.audit);
    } else {
      await checkEscalationTarget(tx, actor, row, decision.escalatedToId);
      updated = await approvals.update(
        row.id,
        {
          status: 'escalated',
          escalatedToId: decision.escalatedToId,
          escalatedToRole: null,
          reason: decision.reason ?? null,
        },
        tx,
      );
      const notified = await notifications.insertLocalised(
        [
          {
            userId: decision.escalatedToId,
            type: 'approval_pending',
            text: notificationTexts.replyEscalatedToYou({
              actorName: actor.name,
              reason: decision.reason ?? null,
            }),
            entityType: 'approval',
            entityId: row.id,
          },
        ],
        tx,
      );
      effects.notifications.push(...notified);
    }
    await conversations.refreshStatus(row.conversationId, tx);
    return { updated, effects, later };
  }

  async function prepareEdit(id: string, decision: Decision): Promise<unknown> {
    if (!deps.learning || decision.action !== 'approve' || decision.editedContent === undefined) return null;
    const row = await approvals.findById(id);
    return row ? deps.learning.prepare(row.approval) : null;
  }

  return {
    /**
     * Decides approval `id` as `actor`. Answers the updated row.
     * @throws NotFoundError when it is missing or outside the actor's departments.
     * @throws ConflictError when it is no longer pending (nor escalated).
     * @throws ForbiddenError when it is escalated to someone the actor is not.
     * @throws ValidationError for an escalation target that is not an active approver of the department.
     */
    async decide(actor: Actor, id: string, decision: Decision): Promise<ApprovalRow> {
      // An edit's question is embedded before the transaction, so no row lock waits on the embedder.
      const prepared = await prepareEdit(id, decision);
      const { updated, effects, later } = await db.transaction(async (tx) =>
        apply(tx, actor, await lockDecidable(tx, actor, id), decision, prepared),
      );
      await release.publish(effects);
      for (const entry of later) await audit.record(entry);
      deps.onDecided?.(updated);
      return updated;
    },
  };
}

export type ApprovalDecisions = ReturnType<typeof createApprovalDecisions>;
