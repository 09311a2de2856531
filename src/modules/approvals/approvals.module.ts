import type { FastifyBaseLogger } from 'fastify';
import type { AuditWriter } from '../../core/audit/audit-hook.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { PipelineModule } from '../../pipeline/pipeline.module.js';
import type { IntentTrustRepository } from '../intents/intent-trust.repository.js';
import { createApprovalDecisions, type EditLearning } from './approval-decisions.js';
import { createApprovalSla } from './approval-sla.js';
import { createApprovalTrust } from './approval-trust.js';
import { createApprovalsRepository } from './approvals.repository.js';
import { createApprovalsService } from './approvals.service.js';

/** The HITL queue: approvals, their decisions, the trust they move, and the opt-in deadline sweep. */
export function createApprovalsModule(deps: {
  db: Database;
  kv: KeyValue;
  logger: FastifyBaseLogger;
  audit: AuditWriter;
  pipeline: Pick<PipelineModule, 'delivery' | 'repositories'> & Partial<Pick<PipelineModule, 'plugins'>>;
  /** The trust records and events the decisions move. */
  trust: IntentTrustRepository;
  /** The ratings of an approval's released reply, for the approval detail (modules/feedback). */
  feedbackOf?: Parameters<typeof createApprovalsService>[0]['feedbackOf'];
  /** What edited approvals teach (the learning module); without it edits teach nothing. */
  learning?: EditLearning;
}) {
  const { db, kv, logger, audit, pipeline } = deps;
  const repository = createApprovalsRepository(db);
  const rows = pipeline.repositories.delivery;
  const conversations = pipeline.repositories.conversations;
  const { recipients } = pipeline.delivery;
  const trust = createApprovalTrust({
    approvals: repository,
    trust: deps.trust,
    recipients,
    notifications: rows,
  });
  const common = {
    db,
    approvals: repository,
    conversations,
    delivery: pipeline.delivery,
    rows,
    recipients,
    audit,
  };
  const decisions = createApprovalDecisions({
    ...common,
    trust,
    onDecided: pipeline.plugins?.approvalDecided,
    ...(deps.learning ? { learning: deps.learning } : {}),
  });
  const sla = createApprovalSla({ ...common, kv });
  const service = createApprovalsService({
    approvals: repository,
    decisions,
    audit,
    logger,
    feedbackOf: deps.feedbackOf,
  });
  return { repository, service, sla, trust };
}

export type ApprovalsModule = ReturnType<typeof createApprovalsModule>;
