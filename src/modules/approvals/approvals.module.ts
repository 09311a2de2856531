import type { FastifyBaseLogger } from 'fastify';
import type { AuditWriter } from '../../core/audit/audit-hook.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { defineModule } from '../../core/module.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { IntentTrustRepository } from '../intents/intent-trust.repository.js';
import type { NotificationsRepository } from '../notifications/notifications.repository.js';
import type { Recipients } from '../notifications/recipients.js';
import { createApprovalDecisions, type EditLearning } from './approval-decisions.js';
import type { ReplyRelease } from './approval-ports.js';
import { createApprovalSla } from './approval-sla.js';
import { createApprovalTrust } from './approval-trust.js';
import { type ApprovalRow, createApprovalsRepository } from './approvals.repository.js';
import { approvalsRoutes } from './approvals.routes.js';
import { createApprovalsService } from './approvals.service.js';
import { createHoldingReply } from './holding-reply.js';

/** The HITL queue: approvals, their decisions, the trust they move, and the opt-in deadline and holding reply sweeps. */
export function createApprovalsModule(deps: {
  db: Database;
  kv: KeyValue;
  logger: FastifyBaseLogger;
  audit: AuditWriter;
  /** Where an approved reply goes, as the pipeline's own replies (pipeline/routing.ts). */
  release: ReplyRelease;
  /** Who decisions, escalations and notices of a department go to. */
  recipients: Recipients;
  conversations: Pick<ConversationsRepository, 'findConversation' | 'refreshStatus'>;
  notifications: Pick<NotificationsRepository, 'insertLocalised'>;
  /** Told of every decision after its commit (namespace plugins' approval events); must not throw. */
  onDecided?: ((approval: ApprovalRow) => void) | undefined;
  /** The trust records and events the decisions move. */
  trust: IntentTrustRepository;
  /** The ratings of an approval's released reply, for the approval detail (modules/feedback). */
  feedbackOf?: Parameters<typeof createApprovalsService>[0]['feedbackOf'];
  /** What edited approvals teach (the learning module); without it edits teach nothing. */
  learning?: EditLearning;
}) {
  const { db, kv, logger, audit, recipients, notifications } = deps;
  const repository = createApprovalsRepository(db);
  const trust = createApprovalTrust({ approvals: repository, trust: deps.trust, recipients, notifications });
  const common = {
    db,
    approvals: repository,
    conversations: deps.conversations,
    release: deps.release,
    notifications,
    recipients,
    audit,
  };
  const decisions = createApprovalDecisions({
    ...common,
    trust,
    interactions: deps.trust,
    onDecided: deps.onDecided,
    ...(deps.learning ? { learning: deps.learning } : {}),
  });
  const sla = createApprovalSla({ ...common, kv });
  const holding = createHoldingReply({ ...common, logger });
  const service = createApprovalsService({
    approvals: repository,
    decisions,
    audit,
    logger,
    feedbackOf: deps.feedbackOf,
  });
  return defineModule({
    repository,
    service,
    /** The decision service itself (chat approvals decide through it as the REST routes do). */
    decisions,
    sla,
    holding,
    trust,
    routes: (api) => api.register(approvalsRoutes, { approvals: service }),
    recurring: [
      { name: sla.name, everyMs: sla.everyMs, run: () => sla.escalateOverdue() },
      { name: holding.name, everyMs: holding.everyMs, run: () => holding.run() },
    ],
  });
}

export type ApprovalsModule = ReturnType<typeof createApprovalsModule>;
