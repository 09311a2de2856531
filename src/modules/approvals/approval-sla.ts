import type { AuditWriter } from '../../core/audit/audit-hook.js';
import { DEPARTMENT_HEAD_ROLE } from '../../core/auth/permissions.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { claimSlot } from '../../core/scheduler.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import { notificationTexts } from '../notifications/notification-texts.js';
import type { NotificationsRepository } from '../notifications/notifications.repository.js';
import type { Recipients } from '../notifications/recipients.js';
import type { ReplyRelease } from './approval-ports.js';
import type { ApprovalsRepository } from './approvals.repository.js';

/** The sweep's name on the scheduler (part of its slot claim key). */
export const SLA_SWEEP_NAME = 'approvals-sla';
/** How often the deadline sweep runs (one time slot). */
export const SLA_SWEEP_EVERY_MS = 60_000;
/** Approvals escalated per sweep at most; the rest wait for the next slot. */
const SWEEP_BATCH = 200;

/**
 * The opt-in approval deadline (`config.approvalSlaMinutes` of a namespace):
 * a reply pending longer is escalated to the department heads' role, with an
 * `approval_pending` notification to each. The sweep is a recurring task of
 * the scheduler (core/scheduler.ts, registered in workers/schedules.ts):
 * each time slot is claimed in the key-value store, so each slot's sweep
 * runs once however many workers there are. The sweep itself is safe to
 * repeat: an approval is escalated only while it is still pending.
 */
export function createApprovalSla(deps: {
  db: Database;
  kv: KeyValue;
  approvals: ApprovalsRepository;
  conversations: Pick<ConversationsRepository, 'refreshStatus'>;
  notifications: Pick<NotificationsRepository, 'insertLocalised'>;
  release: Pick<ReplyRelease, 'publish'>;
  recipients: Recipients;
  audit: AuditWriter;
}) {
  const { db, kv, approvals, conversations, release, recipients, audit } = deps;

  /** Escalates every approval overdue at `now`; answers the ids escalated. */
  async function escalateOverdue(now = new Date()): Promise<string[]> {
    const escalated: string[] = [];
    for (const { id, minutes } of await approvals.overdue(now, SWEEP_BATCH)) {
      const reason = `Not decided within ${minutes} minutes`;
      const done = await db.transaction(async (tx) => {
        const row = await approvals.escalateIfPending(
          id,
          { escalatedToRole: DEPARTMENT_HEAD_ROLE, reason },
          tx,
        );
        if (!row) return null;
        const heads = await recipients.withRole(row.departmentId, DEPARTMENT_HEAD_ROLE, tx);
        const notifications = await deps.notifications.insertLocalised(
          heads.map((userId) => ({
            userId,
            type: 'approval_pending',
            text: notificationTexts.overdueReplyEscalated(minutes),
            entityType: 'approval',
            entityId: row.id,
          })),
          tx,
        );
        await conversations.refreshStatus(row.conversationId, tx);
        return { notifications };
      });
      if (!done) continue;
      escalated.push(id);
      await release.publish({ jobs: [], notifications: done.notifications });
      await audit.record({
        userId: null,
        action: 'escalate',
        entityType: 'approvals',
        entityId: id,
        changes: { escalatedToRole: DEPARTMENT_HEAD_ROLE, reason, approvalSlaMinutes: minutes },
        ipAddress: null,
        userAgent: null,
      });
    }
    return escalated;
  }

  /**
   * Runs the sweep of `now`'s time slot unless another process claimed the
   * slot first (the same claim the scheduler takes); answers whether this
   * call ran it.
   */
  async function runSlot(now = new Date()): Promise<boolean> {
    if (!(await claimSlot(kv, SLA_SWEEP_NAME, SLA_SWEEP_EVERY_MS, now.getTime()))) return false;
    await escalateOverdue(now);
    return true;
  }

  return { name: SLA_SWEEP_NAME, everyMs: SLA_SWEEP_EVERY_MS, escalateOverdue, runSlot };
}

export type ApprovalSla = ReturnType<typeof createApprovalSla>;
