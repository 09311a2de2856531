import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createPipelineScene,
  type PipelineScene,
  usePipelineTestApp,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { agentTasks, approvals, intentTrust, messages } from '../../core/db/schema/index.js';

// The sampling draw is fixed above the sampling rate (0.1): an autonomous intent is never sampled.
const ctx = usePipelineTestApp({}, { workers: true, random: () => 0.99 });

/** The employee asks on the web chat; answers the finished task. */
async function ask(employee: TestUser, n: number) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/conversations/web/messages',
    headers: employee.headers,
    payload: { text: VACATION_QUESTION, clientMessageId: `vacation-${n}` },
  });
  expect(res.statusCode).toBe(202);
  const { taskId } = res.json() as { taskId: string };
  return waitFor(`task ${taskId} to finish`, async () => {
    const [task] = await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.id, taskId));
    return task && ['done', 'failed', 'timeout'].includes(task.status) ? task : null;
  });
}

async function approvalOf(taskId: string) {
  const [row] = await ctx.container.db.select().from(approvals).where(eq(approvals.taskId, taskId));
  return row ?? null;
}

async function trust(scene: PipelineScene) {
  const [row] = await ctx.container.db
    .select()
    .from(intentTrust)
    .where(and(eq(intentTrust.namespaceId, scene.namespaceId), eq(intentTrust.intentName, 'vacation')));
  return row!;
}

async function replyOf(taskId: string) {
  const [row] = await ctx.container.db
    .select()
    .from(messages)
    .where(and(eq(messages.taskId, taskId), eq(messages.direction, 'outbound')));
  return row ?? null;
}

describe('earned trust, end to end', () => {
  it('five plain approvals make the intent autonomous; an edit delivers its text and does not count', async () => {
    const scene = await createPipelineScene(ctx.container);
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: scene.departmentId });
    // The third reply is edited; the other five are approved as written.
    const plan = ['approve', 'approve', 'edit', 'approve', 'approve', 'approve'] as const;
    let counted = 0;
    for (const [index, action] of plan.entries()) {
      const task = await ask(scene.employee, index);
      expect(task.status).toBe('done');
      const approval = await approvalOf(task.id);
      expect(approval?.status, `message ${index}`).toBe('pending');
      const reasons = approval!.triggers.map((t) => t.type);
      expect(reasons).toContain('not_autonomous');
      if (index === 0) expect(reasons).toContain('first_interaction');
      else expect(reasons).not.toContain('first_interaction');
      const edited = `Edited answer ${index}: 24 days a year.`;
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/approvals/${approval!.id}/approve`,
        headers: approver.headers,
        payload: action === 'edit' ? { editedContent: edited } : {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe(action === 'edit' ? 'edited' : 'approved');
      if (action === 'approve') counted++;
      const reply = await replyOf(task.id);
      expect(reply).toMatchObject({ status: 'delivered', approvalId: approval!.id });
      if (action === 'edit') expect(reply!.content).toBe(edited);
      else expect(reply!.content).toBe(approval!.originalContent);
      expect((await trust(scene)).successfulCount).toBe(counted);
    }
    expect(await trust(scene)).toMatchObject({
      successfulCount: 5,
      threshold: 5,
      samplingRate: 0.1,
      isAutonomous: true,
    });

    const next = await ask(scene.employee, plan.length);
    expect(next.status).toBe('done');
    expect(next.output).toMatchObject({ route: 'auto_send' });
    expect(await approvalOf(next.id)).toBeNull();
    expect(await replyOf(next.id)).toMatchObject({ status: 'delivered', approvalId: null });
  });
});
