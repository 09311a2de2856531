import type { FastifyBaseLogger } from 'fastify';
import type { AuditWriter } from '../../core/audit/audit-hook.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { ConversationsRepository } from '../../pipeline/conversations.repository.js';
import type { Delivery } from '../../pipeline/delivery.js';
import type { DeliveryRepository } from '../../pipeline/delivery.repository.js';
import { type ApprovalRecipients, DEPARTMENT_HEAD_ROLE } from './approval-recipients.js';
import type { ApprovalsRepository } from './approvals.repository.js';

/** How often the deadline sweep runs (one time slot). */
export const SLA_SWEEP_EVERY_MS = 60_000;
/** Approvals escalated per sweep at most; the rest wait for the next slot. */
const SWEEP_BATCH = 200;

/**
 * The opt-in approval deadline (`config.approvalSlaMinutes` of a namespace):
 * a reply pending longer is escalated to the department heads' role, with an
 * `approval_pending` notification to each. Every worker process ticks once a
 * slot; the slot is claimed in the key-value store under a key derived from
 * the time slot, so each slot's sweep runs once however many workers there
 * are. The sweep itself is safe to repeat: an approval is escalated only
 * while it is still pending.
 */
export function createApprovalSla(deps: {
  db: Database;
  kv: KeyValue;
  approvals: ApprovalsRepository;
  conversations: Pick<ConversationsRepository, 'refreshStatus'>;
  rows: Pick<DeliveryRepository, 'insertNotifications'>;
  delivery: Pick<Delivery, 'publish'>;
  recipients: ApprovalRecipients;
  audit: AuditWriter;
  logger: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const { db, kv, approvals, conversations, rows, delivery, recipients, audit, logger } = deps;
  let timer: NodeJS.Timeout | null = null;

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
        const notifications = await rows.insertNotifications(
          heads.map((userId) => ({
            userId,
            type: 'approval_pending',
            title: 'Overdue reply escalated for review',
            body: reason,
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
      await delivery.publish({ jobs: [], notifications: done.notifications });
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
   * slot first; answers whether this call ran it.
   */
  async function runSlot(now = new Date()): Promise<boolean> {
    const slot = Math.floor(now.getTime() / SLA_SWEEP_EVERY_MS);
    const claimed = await kv.setIfAbsent(`approvals-sla-${slot}`, '1', SLA_SWEEP_EVERY_MS * 10);
    if (!claimed) return false;
    await escalateOverdue(now);
    return true;
  }

  return {
    escalateOverdue,
    runSlot,

    /** Ticks every slot in this (worker) process. */
    start(): void {
      if (timer) return;
      const tick = () =>
        runSlot().catch((error: unknown) =>
          logger.warn({ err: error }, 'approvals: the deadline escalation sweep failed'),
        );
      void tick();
      timer = setInterval(tick, SLA_SWEEP_EVERY_MS);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type ApprovalSla = ReturnType<typeof createApprovalSla>;
