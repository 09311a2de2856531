import type { AuditEntryInput } from '../../core/audit/audit-hook.js';
import { DEPARTMENT_HEAD_ROLE } from '../../core/auth/permissions.js';
import type { Transaction } from '../../core/db/client.js';
import { MIN_ANSWER_SCORE } from '../../core/llm/extractive-responder.js';
import { isNonAnswer } from '../../core/llm/non-answers.js';
import type { IntentTrustRepository, IntentTrustRow } from '../intents/intent-trust.repository.js';
import { UNKNOWN_INTENT } from '../intents/intent-vote.js';
import {
  confidenceVerdict,
  type TrustEventKind,
  type TrustPolicy,
  trustPolicyOf,
  windowBound,
} from '../intents/trust-evidence.js';
import { notificationTexts } from '../notifications/notification-texts.js';
import type { NotificationRow, NotificationsRepository } from '../notifications/notifications.repository.js';
import type { Recipients } from '../notifications/recipients.js';
import type { ApprovalRow, ApprovalsRepository } from './approvals.repository.js';

/** Why a decision did not count toward its intent's trust. */
export type NotCountedReason = 'no_grounded_answer' | 'unknown_intent';

/**
 * Whether a draft was grounded: at least one source at or above the confidence line and not a
 * no-answer fallback (DECISIONS.md, Approvals). The approval's `confidence` is its best source's.
 */
export function isGroundedDraft(approval: Pick<ApprovalRow, 'sources' | 'confidence' | 'originalContent'>) {
  return (
    approval.sources.length > 0 &&
    approval.confidence >= MIN_ANSWER_SCORE &&
    !isNonAnswer(approval.originalContent)
  );
}

/**
 * What a decision does to its approval's trust columns, written with the decision itself: a
 * decision on an intent that is not classified never counts; a plain approval counts only when
 * its draft was grounded; edits and rejections are counted decisions.
 */
export function trustVerdict(
  approval: Pick<ApprovalRow, 'namespaceId' | 'intent' | 'sources' | 'confidence' | 'originalContent'>,
  outcome: 'approved' | 'edited' | 'rejected',
): { trustCounted: boolean; trustReason: NotCountedReason | null } {
  if (!approval.namespaceId || !approval.intent || approval.intent === UNKNOWN_INTENT) {
    return { trustCounted: false, trustReason: 'unknown_intent' };
  }
  if (outcome === 'approved' && !isGroundedDraft(approval)) {
    return { trustCounted: false, trustReason: 'no_grounded_answer' };
  }
  return { trustCounted: true, trustReason: null };
}

/** `config.trust.demoteAfter` of a namespace config when it is a positive integer; null (off) otherwise. */
export function demoteAfterOf(config: Record<string, unknown> | null): number | null {
  const trust = config?.trust;
  if (!trust || typeof trust !== 'object') return null;
  const value = (trust as Record<string, unknown>).demoteAfter;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : null;
}

/** What a decision did to trust that must wait for the commit. */
export interface TrustEffects {
  notifications: NotificationRow[];
  audit: AuditEntryInput[];
}

/** An employee's rating of an auto-sent reply, as the feedback module hands it over. */
export interface FeedbackForTrust {
  namespaceId: string;
  intentName: string;
  /** The rated reply. */
  messageId: string;
  departmentId: string;
  /** The rating now in force; null when it was removed. */
  rating: 'up' | 'down' | null;
  actorUserId: string | null;
}

const percent = (value: number) => Math.round(value * 1000) / 10;

/**
 * How decisions and ratings move an intent's trust (docs/approvals.md, "Trust"). Every decided
 * approval is recorded as a trust event (its `trust_counted` and `trust_reason`, from {@link trustVerdict}, are written with the decision): a
 * plain approval of a grounded draft is `clean`, of an ungrounded one `not_counted`; edits and
 * rejections are counted decisions. In the namespace's `count` mode a clean approval adds one and
 * autonomy comes at the threshold; in `confidence` mode autonomy follows the Wilson lower bound of
 * the clean rate over the last `window` counted decisions ("down" ratings of auto-sent replies
 * count as rejections there). `config.trust.demoteAfter` works in both modes.
 */
export function createApprovalTrust(deps: {
  approvals: ApprovalsRepository;
  trust: IntentTrustRepository;
  recipients: Recipients;
  notifications: Pick<NotificationsRepository, 'insertLocalised'>;
}) {
  const { approvals, trust, recipients, notifications } = deps;

  /** Demotes the record and tells the department heads; the audit entry waits for the commit. */
  async function demote(
    tx: Transaction,
    record: IntentTrustRow,
    context: { departmentId: string; entityType: string; entityId: string; actorUserId: string | null },
    text: ReturnType<typeof notificationTexts.intentDemoted>,
    changes: Record<string, unknown>,
  ): Promise<TrustEffects> {
    const demoted = await trust.setAutonomous(record.id, false, tx);
    const heads = await recipients.withRole(context.departmentId, DEPARTMENT_HEAD_ROLE, tx);
    return {
      notifications: await notifications.insertLocalised(
        heads.map((userId) => ({
          userId,
          type: 'system',
          text,
          entityType: context.entityType,
          entityId: context.entityId,
        })),
        tx,
      ),
      audit: [
        {
          userId: context.actorUserId,
          action: 'demote',
          entityType: 'intents',
          entityId: demoted.id,
          changes: { namespaceId: record.namespaceId, intent: record.intentName, ...changes },
          ipAddress: null,
          userAgent: null,
        },
      ],
    };
  }

  /** The confidence mode's verdict after an event, applied: promotion or demotion with its notice. */
  async function applyBound(
    tx: Transaction,
    namespaceId: string,
    intentName: string,
    policy: TrustPolicy,
    context: { departmentId: string; entityType: string; entityId: string; actorUserId: string | null },
  ): Promise<TrustEffects> {
    const record = await trust.lockRecord(namespaceId, intentName, tx);
    const recent = await trust.recentKinds(namespaceId, intentName, policy.window, tx);
    const bound = windowBound(recent, policy);
    const verdict = confidenceVerdict(record.isAutonomous, bound, policy);
    const evidence = { lowerBound: bound, counted: recent.length, targetRate: policy.targetRate };
    if (verdict === 'promote') {
      const promoted = await trust.setAutonomous(record.id, true, tx);
      return {
        notifications: [],
        audit: [
          {
            userId: context.actorUserId,
            action: 'promote',
            entityType: 'intents',
            entityId: promoted.id,
            changes: { namespaceId, intent: intentName, mode: 'confidence', ...evidence },
            ipAddress: null,
            userAgent: null,
          },
        ],
      };
    }
    if (verdict === 'demote') {
      const floor = policy.targetRate - policy.margin;
      return demote(
        tx,
        record,
        context,
        notificationTexts.intentDemotedByRate(intentName, percent(bound ?? 0), percent(floor)),
        { mode: 'confidence', ...evidence, floor },
      );
    }
    return { notifications: [], audit: [] };
  }

  /** The count mode's opt-in demotion: `demoteAfter` rejections or edits in a row of an autonomous intent. */
  async function countFailure(
    tx: Transaction,
    approval: ApprovalRow,
    demoteAfter: number,
    outcome: 'edited' | 'rejected',
    actorUserId: string | null,
  ): Promise<TrustEffects> {
    const { namespaceId, intent } = approval as { namespaceId: string; intent: string };
    const counted = await approvals.countFailure(namespaceId, intent, tx);
    if (!counted || counted.consecutiveFailures < demoteAfter) return { notifications: [], audit: [] };
    return demote(
      tx,
      counted,
      { departmentId: approval.departmentId, entityType: 'approval', entityId: approval.id, actorUserId },
      notificationTexts.intentDemoted(intent, demoteAfter),
      { demoteAfter, approvalId: approval.id, outcome },
    );
  }

  return {
    /** Applies `outcome` of `approval` to its intent's trust record, in the decision's transaction. */
    async afterDecision(
      tx: Transaction,
      approval: ApprovalRow,
      outcome: 'approved' | 'edited' | 'rejected',
      actorUserId: string | null,
    ): Promise<TrustEffects> {
      const none: TrustEffects = { notifications: [], audit: [] };
      const { namespaceId, intent } = approval;
      if (!namespaceId || !intent || intent === UNKNOWN_INTENT) return none;
      const config = await approvals.namespaceConfig(namespaceId, tx);
      const policy = trustPolicyOf(config);
      const demoteAfter = demoteAfterOf(config);
      const kind: TrustEventKind =
        outcome === 'edited'
          ? 'edit'
          : outcome === 'rejected'
            ? 'reject'
            : trustVerdict(approval, outcome).trustCounted
              ? 'clean'
              : 'not_counted';
      await trust.recordEvent({ namespaceId, intentName: intent, kind, approvalId: approval.id }, tx);
      if (kind === 'not_counted') {
        // The record shows the evidence, so it exists from the first decision on.
        await trust.ensure(namespaceId, [intent], tx);
        return none;
      }

      const effects: TrustEffects = { notifications: [], audit: [] };
      const merge = (more: TrustEffects) => {
        effects.notifications.push(...more.notifications);
        effects.audit.push(...more.audit);
      };
      if (kind === 'clean') {
        await trust.recordApproval(namespaceId, intent, tx, { promote: policy.mode === 'count' });
        if (demoteAfter) await approvals.resetFailures(namespaceId, intent, tx);
      } else if (demoteAfter) {
        merge(await countFailure(tx, approval, demoteAfter, outcome as 'edited' | 'rejected', actorUserId));
      }
      if (policy.mode === 'confidence') {
        merge(
          await applyBound(tx, namespaceId, intent, policy, {
            departmentId: approval.departmentId,
            entityType: 'approval',
            entityId: approval.id,
            actorUserId,
          }),
        );
      }
      return effects;
    },

    /**
     * Applies an employee's rating of an auto-sent reply, in the rating's transaction: a "down"
     * is recorded once per reply (a removal or an "up" withdraws it); in `confidence` mode it
     * counts as a rejection, so the bound is recomputed and may demote (or, withdrawn, promote).
     */
    async afterFeedback(tx: Transaction, feedback: FeedbackForTrust): Promise<TrustEffects> {
      const { namespaceId, intentName, messageId } = feedback;
      if (intentName === UNKNOWN_INTENT) return { notifications: [], audit: [] };
      const changed =
        feedback.rating === 'down'
          ? await trust.recordEvent({ namespaceId, intentName, kind: 'down', messageId }, tx)
          : await trust.removeDown(messageId, tx);
      const policy = trustPolicyOf(await approvals.namespaceConfig(namespaceId, tx));
      if (!changed || policy.mode !== 'confidence') return { notifications: [], audit: [] };
      return applyBound(tx, namespaceId, intentName, policy, {
        departmentId: feedback.departmentId,
        entityType: 'message',
        entityId: messageId,
        actorUserId: feedback.actorUserId,
      });
    },
  };
}

export type ApprovalTrust = ReturnType<typeof createApprovalTrust>;
