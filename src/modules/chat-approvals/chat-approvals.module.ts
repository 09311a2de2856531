import type { AuditWriter } from '../../core/audit/audit-hook.js';
import type { Actor } from '../../core/auth/actor.js';
import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { ApprovalDecisions } from '../approvals/approval-decisions.js';
import { createChatApprovalsRepository } from './chat-approvals.repository.js';
import { createChatDecisions } from './chat-decisions.js';
import type { ApprovalChannel, ApprovalChatTransport } from './chat-ports.js';
import { createChatRequests } from './chat-requests.js';
import { createDecisionTokens } from './decision-token.js';

/**
 * Approvals in chat: requests to the approvers who turned them on (PUT /me/approval-channels),
 * decisions from their buttons and answers, the copies kept current. The channels implement the
 * transports (src/channels/<chan>/approval-chat.ts) and hand presses and texts to `inbound`.
 */
export function createChatApprovalsModule(deps: {
  db: Database;
  /** JWT_SECRET: the buttons' tokens are signed with a key derived from it. */
  secret: string;
  transports: Partial<Record<ApprovalChannel, ApprovalChatTransport>>;
  decisions: Pick<ApprovalDecisions, 'decide'>;
  /** The user as an actor with their current access; null when inactive or gone. */
  actorOf(userId: string): Promise<Actor | null>;
  /** The users who may approve in a department now. */
  approversOf(departmentId: string): Promise<string[]>;
  audit: AuditWriter;
  /** The console's inbox address for digests, null without a public address. */
  inboxLink: string | null;
  logger: { warn(object: object, message?: string): void };
}) {
  const repository = createChatApprovalsRepository(deps.db);
  const tokens = createDecisionTokens(deps.secret);
  const requests = createChatRequests({
    repository,
    tokens,
    transports: deps.transports,
    approversOf: deps.approversOf,
    inboxLink: deps.inboxLink,
    logger: deps.logger,
  });
  const inbound = createChatDecisions({
    repository,
    tokens,
    transports: deps.transports,
    decisions: deps.decisions,
    actorOf: deps.actorOf,
    approversOf: deps.approversOf,
    requests,
    audit: deps.audit,
    logger: deps.logger,
  });
  return defineModule({
    repository,
    requests,
    inbound,
    recurring: [{ name: requests.name, everyMs: requests.everyMs, run: () => requests.run() }],
    close: () => requests.settled(),
  });
}

export type ChatApprovalsModule = ReturnType<typeof createChatApprovalsModule>;
