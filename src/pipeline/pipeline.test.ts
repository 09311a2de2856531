import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDepartment, createUser } from '../../test/factories.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  makeAutonomous,
  markInteracted,
  type PipelineTestContext,
  VACATION_FACT,
  VACATION_QUESTION,
  waitFor,
} from '../../test/pipeline-factories.js';
import { PIPELINE_EVENT_SEQUENCE, PIPELINE_TOOL_CALL_PROGRESS } from '../../test/realtime.js';
import {
  agentRuns,
  agentTasks,
  approvals,
  conversations,
  employeeProfiles,
  messages,
  notifications,
  retrievalHits,
  users,
} from '../core/db/schema/index.js';
import { type EventEnvelope, subscribeEvents } from '../core/realtime/events.js';
import { STEP_NAMES } from './runner.js';

let ctx: PipelineTestContext;
const events: EventEnvelope[] = [];

beforeAll(async () => {
  // The sampling draw is fixed above every sampling rate: autonomous intents are never sampled.
  ctx = await createPipelineTestApp({}, { workers: true, random: () => 0.99 });
  await subscribeEvents(ctx.container.bus, 'agent-task', (envelope) => events.push(envelope));
  await subscribeEvents(ctx.container.bus, 'notification', (envelope) => events.push(envelope));
});
afterAll(async () => {
  await ctx.close();
});

async function finishedTask(taskId: string) {
  return waitFor(`task ${taskId} to finish`, async () => {
    const [task] = await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.id, taskId));
    return task && ['done', 'failed', 'timeout'].includes(task.status) ? task : null;
  });
}

/** A channel A message about an autonomous intent the employee met before, run to its end. */
async function autonomousTask(text: string, label?: string) {
  const { container } = ctx;
  const scene = await createPipelineScene(container);
  await makeAutonomous(container, scene.namespaceId, 'vacation');
  await markInteracted(container, scene.employee.user.id, scene.namespaceId, 'vacation');
  const received = await container.pipeline.inbound.receive({
    channel: 'chanA',
    channelUserId: scene.phone,
    text,
    ...(label ? { channelMessageId: `wamid-${scene.phone}-${label}` } : {}),
  });
  return { scene, received, task: await finishedTask(received.taskId!) };
}

describe('pipeline: inbound message to approval', () => {
  it('runs the four steps and writes a pending approval for exactly the department approvers', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const approver = await createUser(container, { role: 'approver', departmentId: scene.departmentId });
    const deptHead = await createUser(container, { role: 'dept_head', departmentId: scene.departmentId });
    const colleague = await createUser(container, { role: 'employee', departmentId: scene.departmentId });
    const elsewhere = await createUser(container, {
      role: 'approver',
      departmentId: (await createDepartment(container)).id,
    });
    const admin = await createUser(container, { role: 'admin', departmentId: elsewhere.user.departmentId });
    const revoked = await createUser(container, {
      role: 'approver',
      departmentId: scene.departmentId,
      revokedPermissions: ['canApprove'],
    });
    const extra = await createUser(container, {
      role: 'approver',
      departmentId: elsewhere.user.departmentId,
      extraDepartmentIds: [scene.departmentId],
    });
    const inactive = await createUser(container, {
      role: 'approver',
      departmentId: scene.departmentId,
      isActive: false,
    });
    // canApprove through an extra grant, not the role: approvers are narrowed in SQL, this one must stay.
    const granted = await createUser(container, {
      role: 'employee',
      departmentId: scene.departmentId,
      extraPermissions: ['canApprove'],
    });

    const received = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: `+${scene.phone}`,
      text: VACATION_QUESTION,
      channelMessageId: `wamid-${scene.phone}-1`,
    });
    expect(received.duplicate).toBe(false);
    const task = await finishedTask(received.taskId!);
    expect(task).toMatchObject({ status: 'done', namespaceId: scene.namespaceId, adapterType: 'api' });
    expect(task.jobId).toBe(`agent-task-${task.id}`);
    expect(task.durationMs).toBeGreaterThanOrEqual(0);

    const calls = await container.pipeline.repositories.tasks.toolCalls(task.id);
    expect(calls.map((c) => [c.stepName, c.status])).toEqual(STEP_NAMES.map((name) => [name, 'done']));
    for (const call of calls) {
      expect(call.inputData).toBeTruthy();
      expect(call.outputData).toBeTruthy();
      expect(call.errorMessage).toBeNull();
    }

    const [approval] = await container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
    expect(approval).toMatchObject({
      status: 'pending',
      conversationId: received.conversationId,
      messageId: received.messageId,
      departmentId: scene.departmentId,
      namespaceId: scene.namespaceId,
      intent: 'vacation',
      escalatedToId: null,
      escalatedToRole: null,
    });
    expect(approval!.originalContent).toContain('twenty four days');
    expect(approval!.originalContent).toBe((task.output as { reply: string }).reply);
    expect(approval!.confidence).toBeGreaterThanOrEqual(0.9);
    const [document] = scene.knowledge.documents;
    expect(approval!.sources).toContainEqual({
      chunkId: document!.chunks[0]!.id,
      documentId: document!.document.id,
      title: 'Vacation policy',
      score: expect.any(Number),
    });
    // First interaction and an intent that has not earned autonomy: both reasons, nothing else.
    expect(approval!.triggers.map((t) => t.type).sort()).toEqual(['first_interaction', 'not_autonomous']);
    expect(approval!.context).toMatchObject({
      channel: 'chanA',
      language: 'en',
      userMessage: { id: received.messageId, content: VACATION_QUESTION },
      turns: [],
    });

    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, received.conversationId));
    expect(conversation!.status).toBe('awaiting_approval');

    const rows = await container.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.entityType, 'approval'), eq(notifications.entityId, approval!.id)));
    const admins = await container.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.isActive, true)));
    const expected = [approver, deptHead, extra, granted]
      .map((u) => u.user.id)
      .concat(admins.map((a) => a.id));
    expect(rows.map((r) => r.userId).sort()).toEqual([...new Set(expected)].sort());
    expect(rows.map((r) => r.userId)).toContain(admin.user.id);
    for (const outsider of [colleague, elsewhere, revoked, inactive, scene.employee]) {
      expect(rows.map((r) => r.userId)).not.toContain(outsider.user.id);
    }
    expect(rows.every((r) => r.type === 'approval_pending')).toBe(true);

    // No reply went out; the trace is there with its hits.
    const outbound = await container.db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(outbound).toEqual([]);
    const [run] = await container.db.select().from(agentRuns).where(eq(agentRuns.traceId, task.traceId!));
    expect(run).toMatchObject({ taskId: task.id, provider: 'offline' });
    const hits = await container.db.select().from(retrievalHits).where(eq(retrievalHits.runId, run!.id));
    expect(hits.map((h) => h.chunkId)).toContain(document!.chunks[0]!.id);

    // Events: created, started, four tool calls with progress, completed; a notification per recipient.
    await waitFor('the completed event', () =>
      events.some(
        (e) => e.event === 'agent-task.completed' && (e.payload as { taskId?: string }).taskId === task.id,
      ),
    );
    const own = events.filter((e) => (e.payload as { taskId?: string }).taskId === task.id);
    expect(own.map((e) => e.event)).toEqual(PIPELINE_EVENT_SEQUENCE);
    expect(
      own.map((e) => (e.payload as { progress?: number }).progress).filter((p) => p !== undefined),
    ).toEqual(PIPELINE_TOOL_CALL_PROGRESS);
    // The events carry the committed rows: the tool calls' ids, the task's output and duration.
    expect(
      own
        .filter((e) => e.event === 'agent-task.tool-call')
        .map((e) => (e.payload as { toolCall: { id: string; durationMs: number } }).toolCall),
    ).toEqual(calls.map((call) => expect.objectContaining({ id: call.id, durationMs: call.durationMs })));
    expect(own.at(-1)!.payload).toMatchObject({ output: task.output!, durationMs: task.durationMs! });
    await waitFor('the notification events', () =>
      rows.every((row) =>
        events.some((e) => e.event === 'notification.created' && (e.payload as { id: string }).id === row.id),
      ),
    );
    const notified = events.find(
      (e) => e.event === 'notification.created' && (e.payload as { id: string }).id === rows[0]!.id,
    );
    expect(notified!.payload).toMatchObject({ createdAt: rows[0]!.createdAt.toISOString(), readAt: null });

    // Memory extraction refreshes the sender's profile.
    const profile = await waitFor('the profile memory', async () => {
      const [row] = await container.db
        .select()
        .from(employeeProfiles)
        .where(eq(employeeProfiles.userId, scene.employee.user.id));
      return row?.frequentIntents.includes('vacation') ? row : null;
    });
    expect(profile.summary).toContain('twenty four days');
  });

  it('auto-sends an autonomous intent: a queued outbound message and its chanA-outbound job', async () => {
    const { container } = ctx;
    const { received, task } = await autonomousTask(VACATION_QUESTION, 'auto');
    expect(task.status).toBe('done');
    expect(task.output).toMatchObject({ route: 'auto_send', approvalId: null, reasons: [] });

    const [reply] = await container.db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(reply).toMatchObject({
      direction: 'outbound',
      channel: 'chanA',
      conversationId: received.conversationId,
      approvalId: null,
    });
    expect(reply!.content).toContain(VACATION_FACT.slice(0, 40));
    // Written `queued`; this app's chanA-outbound worker has no channel A credentials, so it
    // fails the reply with the reason (channels.md), which is the end state to wait for.
    const delivered = await waitFor('the outbound worker to settle the reply', async () => {
      const [row] = await container.db.select().from(messages).where(eq(messages.id, reply!.id));
      return row?.status === 'queued' ? null : row;
    });
    expect(delivered).toMatchObject({
      status: 'failed',
      metadata: { failureReason: 'chanA is not configured: no credentials to send with' },
    });
    const job = await container.queue.getJob<{ messageId: string }>(
      'chanA-outbound',
      `outbound-${reply!.id}`,
    );
    expect(job?.data).toEqual({ messageId: reply!.id });
    expect(await container.db.select().from(approvals).where(eq(approvals.taskId, task.id))).toEqual([]);
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, received.conversationId));
    expect(conversation!.status).toBe('open');
  });

  it('enqueues a reply again when its worker stopped between the decision and the job', async () => {
    const { container } = ctx;
    const { task } = await autonomousTask(VACATION_QUESTION, 'stopped');
    expect(task.output).toMatchObject({ route: 'auto_send' });
    const [reply] = await container.db.select().from(messages).where(eq(messages.taskId, task.id));
    const outboundJobId = `outbound-${reply!.id}`;
    const memoryJobId = `memory-${task.id}`;
    const settled = (queue: 'chanA-outbound' | 'memory-extraction', jobId: string) =>
      waitFor(`${jobId} to settle`, async () => {
        const job = await container.queue.getJob(queue, jobId);
        return job && ['completed', 'failed'].includes(job.state) ? job : null;
      });
    await settled('chanA-outbound', outboundJobId);
    await settled('memory-extraction', memoryJobId);

    // What a worker stopping right after the decision's commit leaves: the reply queued, no jobs.
    await container.db.update(messages).set({ status: 'queued' }).where(eq(messages.id, reply!.id));
    expect(await container.queue.removeJob('chanA-outbound', outboundJobId)).toBe(true);
    expect(await container.queue.removeJob('memory-extraction', memoryJobId)).toBe(true);

    // The task's job runs again, as the queue runs a job whose worker stopped.
    await container.queue.add('agent-tasks', 'run', { taskId: task.id }, { jobId: `${task.jobId}-again` });
    const outbound = await settled('chanA-outbound', outboundJobId);
    expect(outbound.data).toEqual({ messageId: reply!.id });
    await settled('memory-extraction', memoryJobId);
    // Sent (here: failed for want of credentials) once more, and nothing written twice.
    const [after] = await container.db.select().from(messages).where(eq(messages.id, reply!.id));
    expect(after!.status).toBe('failed');
    expect(await container.db.select().from(messages).where(eq(messages.taskId, task.id))).toHaveLength(1);
  });

  it('round-trips a web message: delivered at once with an assistant_reply notification', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    await makeAutonomous(container, scene.namespaceId, 'vacation');
    await markInteracted(container, scene.employee.user.id, scene.namespaceId, 'vacation');

    const input = {
      channel: 'web' as const,
      channelUserId: scene.employee.user.id,
      userId: scene.employee.user.id,
      text: VACATION_QUESTION,
      channelMessageId: 'client-1',
    };
    const received = await container.pipeline.inbound.receive(input);
    const task = await finishedTask(received.taskId!);
    expect(task.status).toBe('done');
    const [reply] = await container.db.select().from(messages).where(eq(messages.taskId, task.id));
    expect(reply).toMatchObject({ direction: 'outbound', status: 'delivered', channel: 'web' });
    const [notification] = await container.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.entityType, 'message'), eq(notifications.entityId, reply!.id)));
    expect(notification).toMatchObject({ userId: scene.employee.user.id, type: 'assistant_reply' });

    // The same client message id again is acknowledged, not processed twice.
    const again = await container.pipeline.inbound.receive(input);
    expect(again).toEqual({ ...received, duplicate: true });
    const inbound = await container.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, received.conversationId), eq(messages.direction, 'inbound')));
    expect(inbound).toHaveLength(1);
  });

  it('sends a reply to a human for a default trigger word, even for an autonomous intent', async () => {
    const { container } = ctx;
    const { task } = await autonomousTask(`${VACATION_QUESTION} I want to file a complaint.`);
    const [approval] = await container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
    expect(approval!.triggers).toContainEqual({
      type: 'trigger_word',
      word: 'complaint',
      foundIn: 'message',
    });
    expect(approval!.triggers.map((t) => t.type)).not.toContain('not_autonomous');
  });

  it('escalates a persona boundary to the role it names, with every member notified', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container, {
      persona: { boundaries: ['salary negotiation'], escalateToRole: 'dept_head' },
    });
    const head = await createUser(container, { role: 'dept_head', departmentId: scene.departmentId });
    const approver = await createUser(container, { role: 'approver', departmentId: scene.departmentId });

    const received = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'I would like to start a salary negotiation with my manager',
    });
    const task = await finishedTask(received.taskId!);
    const [approval] = await container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
    expect(approval).toMatchObject({
      status: 'escalated',
      escalatedToRole: 'dept_head',
      escalatedToId: null,
    });
    expect(approval!.triggers.map((t) => t.type)).toContain('persona_boundary');
    const rows = await container.db
      .select()
      .from(notifications)
      .where(inArray(notifications.userId, [head.user.id, approver.user.id]));
    expect(rows.map((r) => [r.userId, r.type])).toEqual([[head.user.id, 'approval_pending']]);
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, received.conversationId));
    expect(conversation!.status).toBe('escalated');
  });

  it('replays a task whose approval was written without creating anything twice', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    await createUser(container, { role: 'approver', departmentId: scene.departmentId });
    const received = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: VACATION_QUESTION,
    });
    const task = await finishedTask(received.taskId!);
    const [approval] = await container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
    const countAll = async () => ({
      approvals: (await container.db.select().from(approvals).where(eq(approvals.taskId, task.id))).length,
      notifications: (
        await container.db.select().from(notifications).where(eq(notifications.entityId, approval!.id))
      ).length,
      outbound: (await container.db.select().from(messages).where(eq(messages.taskId, task.id))).length,
      toolCalls: (await container.pipeline.repositories.tasks.toolCalls(task.id)).length,
      runs: (await container.db.select().from(agentRuns).where(eq(agentRuns.taskId, task.id))).length,
    });
    const before = await countAll();
    expect(before).toMatchObject({ approvals: 1, outbound: 0, toolCalls: 4, runs: 1 });
    expect(before.notifications).toBeGreaterThan(0);

    // A worker died after the approval was written: the task still reads running and its job runs again.
    await container.db.update(agentTasks).set({ status: 'running' }).where(eq(agentTasks.id, task.id));
    await container.pipeline.runner.run(task.id);
    expect(await countAll()).toEqual(before);
    const [replayed] = await container.db.select().from(agentTasks).where(eq(agentTasks.id, task.id));
    expect(replayed).toMatchObject({ status: 'done' });
    expect(replayed!.output).toMatchObject({ approvalId: approval!.id });

    // The decision itself repeated finds the task finished and writes nothing.
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, received.conversationId));
    const [inbound] = await container.db.select().from(messages).where(eq(messages.id, received.messageId));
    const again = await container.pipeline.routing.decide({
      task: { id: task.id, namespaceId: scene.namespaceId, departmentId: scene.departmentId },
      conversation: conversation!,
      inbound: inbound!,
      decision: { route: 'hitl', reasons: [{ type: 'not_autonomous' }], draw: null },
      reply: 'another draft',
      intent: 'vacation',
      confidence: 0.5,
      sources: [],
      context: {
        channel: 'chanA',
        language: 'en',
        userMessage: { id: '', content: '', createdAt: '' },
        turns: [],
      },
      toolCalls: [{ taskId: task.id, stepName: 'generate', status: 'done', durationMs: 1 }],
      run: {
        run: {
          id: randomUUID(),
          traceId: randomUUID(),
          taskId: task.id,
          provider: 'local',
          model: 'extractive',
        },
        hits: [],
      },
      output: { reply: 'another draft' },
    });
    expect(again).toBeNull();
    expect(await countAll()).toEqual(before);
  });
});
