import type { AuditEntryInput } from '../../core/audit/audit-hook.js';
import type { Transaction } from '../../core/db/client.js';
import type { DeliveryRepository, NotificationRow } from '../../pipeline/delivery.repository.js';
import { DEPARTMENT_HEAD_ROLE, type Recipients } from '../../pipeline/recipients.js';
import type { IntentTrustService } from '../intents/intent-trust.service.js';
import { notificationTexts } from '../notifications/notification-texts.js';
import type { ApprovalRow, ApprovalsRepository } from './approvals.repository.js';

/** The intent the classifier answers below its threshold: never autonomous, so never counted. */
const UNKNOWN_INTENT = 'unknown';

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

/**
 * How a decision moves the intent's trust record. A plain approval counts
 * (+1, autonomy at the threshold). With `config.trust.demoteAfter` set on the
 * namespace, rejections and edits of an autonomous intent are counted in a
 * row and the N-th takes autonomy away; unset, nothing but the +1 happens.
 */
export function createApprovalTrust(deps: {
  approvals: ApprovalsRepository;
  trust: Pick<IntentTrustService, 'recordApproval'>;
  recipients: Recipients;
  notifications: Pick<DeliveryRepository, 'insertNotifications'>;
}) {
  const { approvals, trust, recipients, notifications } = deps;

  return {
    /** Applies `outcome` of `approval` to its intent's trust record, in the decision's transaction. */
    async afterDecision(
      tx: Transaction,
      approval: ApprovalRow,
      outcome: 'approved' | 'edited' | 'rejected',
      actorUserId: string | null,
    ): Promise<TrustEffects> {
      const effects: TrustEffects = { notifications: [], audit: [] };
      const { namespaceId, intent } = approval;
      if (!namespaceId || !intent || intent === UNKNOWN_INTENT) return effects;
      const demoteAfter = demoteAfterOf(await approvals.namespaceConfig(namespaceId, tx));
      if (outcome === 'approved') {
        await trust.recordApproval(namespaceId, intent, tx);
        if (demoteAfter) await approvals.resetFailures(namespaceId, intent, tx);
        return effects;
      }
      if (!demoteAfter) return effects;
      const counted = await approvals.countFailure(namespaceId, intent, tx);
      if (!counted || counted.consecutiveFailures < demoteAfter) return effects;

      const demoted = await approvals.demote(counted.id, tx);
      const heads = await recipients.withRole(approval.departmentId, DEPARTMENT_HEAD_ROLE, tx);
      effects.notifications = await notifications.insertNotifications(
        heads.map((userId) => ({
          userId,
          type: 'system',
          text: notificationTexts.intentDemoted(intent, demoteAfter),
          entityType: 'approval',
          entityId: approval.id,
        })),
        tx,
      );
      effects.audit.push({
        userId: actorUserId,
        action: 'demote',
        entityType: 'intents',
        entityId: demoted.id,
        changes: { namespaceId, intent, demoteAfter, approvalId: approval.id, outcome },
        ipAddress: null,
        userAgent: null,
      });
      return effects;
    },
  };
}

export type ApprovalTrust = ReturnType<typeof createApprovalTrust>;
