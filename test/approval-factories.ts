import { and, eq } from 'drizzle-orm';
import type { Container } from '../src/container.js';
import { approvals, auditLogs, conversations, messages } from '../src/core/db/schema/index.js';
import {
  createDepartment,
  createKnowledgeFixture,
  createNamespace,
  createUser,
  type TestUser,
} from './factories.js';
import { waitFor } from './pipeline-factories.js';

export interface ApprovalFixture {
  approval: typeof approvals.$inferSelect;
  conversationId: string;
  departmentId: string;
  namespaceId: string;
  employee: TestUser;
  /** The chunk the approval cites, with its text. */
  chunk: { id: string; documentId: string; content: string };
}

/**
 * A reply waiting for approval as the pipeline leaves it: an employee's
 * conversation (web by default) in `awaiting_approval`, the inbound message
 * and a `pending` approval citing a real chunk, written directly (no agent
 * task, no worker).
 */
export async function createApprovalFixture(
  container: Container,
  values: {
    departmentId?: string;
    namespaceId?: string;
    employee?: TestUser;
    channel?: 'web' | 'chanA' | 'chanB';
    status?: 'pending' | 'escalated';
    intent?: string;
    triggers?: Array<{ type: string; [key: string]: unknown }>;
    reply?: string;
    /** The draft's confidence (0.93 by default: a grounded draft). */
    confidence?: number;
    /** false: the draft cites no source. */
    sources?: boolean;
    createdAt?: Date;
  } = {},
): Promise<ApprovalFixture> {
  const departmentId = values.departmentId ?? (await createDepartment(container)).id;
  const namespaceId =
    values.namespaceId ?? (await createNamespace(container, { departmentId, systemPrompt: 'HR' })).id;
  const channel = values.channel ?? 'web';
  const phone = `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`;
  const employee = values.employee ?? (await createUser(container, { departmentId, phone }));
  const knowledge = await createKnowledgeFixture(container, {
    departmentId,
    documents: [
      { title: 'Vacation policy', chunks: ['Employees receive twenty four days of paid vacation.'] },
    ],
  });
  const document = knowledge.documents[0]!;
  const chunk = document.chunks[0]!;
  const [conversation] = await container.db
    .insert(conversations)
    .values({
      channel,
      channelUserId: channel === 'web' ? employee.user.id : (employee.user.phone ?? phone),
      userId: employee.user.id,
      departmentId,
      namespaceId,
      status: values.status === 'escalated' ? 'escalated' : 'awaiting_approval',
    })
    .returning();
  const [inbound] = await container.db
    .insert(messages)
    .values({
      conversationId: conversation!.id,
      channel,
      direction: 'inbound',
      content: 'How many vacation days do I get?',
    })
    .returning();
  const [approval] = await container.db
    .insert(approvals)
    .values({
      conversationId: conversation!.id,
      messageId: inbound!.id,
      departmentId,
      namespaceId,
      status: values.status ?? 'pending',
      originalContent: values.reply ?? 'You get twenty four days of paid vacation.',
      intent: values.intent ?? 'vacation',
      confidence: values.confidence ?? 0.93,
      triggers: values.triggers ?? [{ type: 'first_interaction' }, { type: 'not_autonomous' }],
      sources:
        values.sources === false
          ? []
          : [{ chunkId: chunk.id, documentId: document.document.id, title: 'Vacation policy', score: 0.93 }],
      context: {
        channel,
        language: 'en',
        userMessage: {
          id: inbound!.id,
          content: inbound!.content,
          createdAt: inbound!.createdAt.toISOString(),
        },
        turns: [],
      },
      escalatedToRole: values.status === 'escalated' ? 'dept_head' : null,
      ...(values.createdAt ? { createdAt: values.createdAt } : {}),
    })
    .returning();
  return {
    approval: approval!,
    conversationId: conversation!.id,
    departmentId,
    namespaceId,
    employee,
    chunk: { id: chunk.id, documentId: document.document.id, content: chunk.content },
  };
}

/** The outbound messages an approval released. */
export async function outboundOf(container: Container, approvalId: string) {
  return container.db.select().from(messages).where(eq(messages.approvalId, approvalId));
}

/**
 * The `approval_pending` notification the pipeline writes for each of `userIds` about
 * `approvalId` (a fixture writes none): what chat approvals turn into requests.
 */
export async function notifyApprovalPending(container: Container, approvalId: string, ...userIds: string[]) {
  await container.pipeline.repositories.notifications.insertLocalised(
    userIds.map((userId) => ({
      userId,
      type: 'approval_pending',
      text: () => ({ title: 'A reply waits', body: null }),
      entityType: 'approval',
      entityId: approvalId,
    })),
    container.db,
  );
}

/** Approval `approvalId` once it has `status` (waited for: a decision from chat runs in a worker). */
export function approvalWithStatus(
  container: Container,
  approvalId: string,
  status: string,
  timeoutMs = 60_000,
) {
  return waitFor(
    `the approval ${status}`,
    async () => {
      const [row] = await container.db.select().from(approvals).where(eq(approvals.id, approvalId));
      return row?.status === status ? row : null;
    },
    timeoutMs,
  );
}

/** The audit entries of `action` on approval `approvalId` written by a decision taken on `channel`. */
export async function chatDecisionAudits(
  container: Container,
  approvalId: string,
  action: string,
  channel: 'chanA' | 'chanB',
) {
  const rows = await container.db
    .select()
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.entityType, 'approvals'),
        eq(auditLogs.entityId, approvalId),
        eq(auditLogs.action, action),
      ),
    );
  return rows.filter((row) => (row.changes as { via?: string } | null)?.via === channel);
}
