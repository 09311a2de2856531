import { randomUUID } from 'node:crypto';
import type { Container } from '../src/container.js';
import { agentTasks, approvals, conversations, messages } from '../src/core/db/schema/index.js';
import { createDepartment, createNamespace, createUser, type TestUser } from './factories.js';

export interface ReplyScene {
  departmentId: string;
  namespaceId: string;
  employee: TestUser;
  /** Employee's phone digits (the channel A sender id). */
  phone: string;
}

/** A department with a namespace, an approver and an employee with a phone number. */
export async function createReplyScene(container: Container): Promise<ReplyScene & { approver: TestUser }> {
  const department = await createDepartment(container);
  const namespace = await createNamespace(container, { departmentId: department.id });
  const phone = `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`;
  const employee = await createUser(container, { departmentId: department.id, phone });
  const approver = await createUser(container, { role: 'approver', departmentId: department.id });
  return { departmentId: department.id, namespaceId: namespace.id, employee, phone, approver };
}

/**
 * An employee's question and the reply an agent task wrote to it, as the pipeline leaves them:
 * the conversation (opened, or the given one), the inbound message, the done task with its
 * intent, and the outbound reply: auto-sent, or released by an approval with `approved`, or
 * the channel's own fixed text (no task) with `fixedText`.
 */
export async function createReply(
  container: Container,
  scene: ReplyScene,
  values: {
    channel: 'web' | 'chanA' | 'chanB';
    conversationId?: string;
    /** chanB: the chat (the platform user id); chanA: the phone; web: the user id. */
    channelUserId?: string;
    intent?: string;
    approved?: boolean;
    fixedText?: boolean;
    channelMessageId?: string | null;
    status?: string;
  },
) {
  const { channel } = values;
  const channelUserId =
    values.channelUserId ??
    (channel === 'web' ? scene.employee.user.id : channel === 'chanA' ? scene.phone : '1');
  const conversationId =
    values.conversationId ??
    (
      await container.db
        .insert(conversations)
        .values({
          channel,
          channelUserId,
          userId: scene.employee.user.id,
          departmentId: scene.departmentId,
          namespaceId: scene.namespaceId,
        })
        .returning()
    )[0]!.id;
  const [inbound] = await container.db
    .insert(messages)
    .values({ conversationId, channel, direction: 'inbound', content: 'How many vacation days do I get?' })
    .returning();
  const content = 'You get twenty four days of paid vacation.';
  const [task] = await container.db
    .insert(agentTasks)
    .values({
      jobId: `agent-task-${randomUUID()}`,
      namespaceId: scene.namespaceId,
      departmentId: scene.departmentId,
      conversationId,
      messageId: inbound!.id,
      status: 'done',
      output: { route: values.approved ? 'hitl' : 'auto_send', intent: values.intent ?? 'vacation' },
    })
    .returning();
  let approvalId: string | null = null;
  if (values.approved) {
    const [approval] = await container.db
      .insert(approvals)
      .values({
        conversationId,
        messageId: inbound!.id,
        taskId: task!.id,
        departmentId: scene.departmentId,
        namespaceId: scene.namespaceId,
        status: 'approved',
        originalContent: content,
        intent: values.intent ?? 'vacation',
        confidence: 0.9,
        triggers: [{ type: 'first_interaction' }],
        sources: [],
        context: {},
        decidedAt: new Date(),
      })
      .returning();
    approvalId = approval!.id;
  }
  const [reply] = await container.db
    .insert(messages)
    .values({
      conversationId,
      channel,
      direction: 'outbound',
      content: values.fixedText ? 'Sorry, I can only read text messages.' : content,
      status: values.status ?? (channel === 'web' ? 'delivered' : 'sent'),
      taskId: values.fixedText ? null : task!.id,
      approvalId,
      channelMessageId: values.channelMessageId ?? null,
    })
    .returning();
  return { conversationId, inbound: inbound!, task: task!, approvalId, reply: reply! };
}
