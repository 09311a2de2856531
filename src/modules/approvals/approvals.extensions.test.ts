import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createApprovalFixture } from '../../../test/approval-factories.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import {
  approvals,
  auditLogs,
  conversations,
  intentTrust,
  notifications,
} from '../../core/db/schema/index.js';

// No workers: the deadline sweep runs only when a test calls it.
const ctx = useTestApp();

async function setup(config: Record<string, unknown>) {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id, config });
  const approver = await createUser(ctx.container, { role: 'approver', departmentId: department.id });
  const heads = [
    await createUser(ctx.container, { role: 'dept_head', departmentId: department.id }),
    await createUser(ctx.container, { role: 'dept_head', departmentId: department.id }),
  ];
  return { departmentId: department.id, namespaceId: namespace.id, approver, heads };
}

async function autonomous(namespaceId: string, intentName = 'vacation') {
  await ctx.container.db
    .insert(intentTrust)
    .values({ namespaceId, intentName, successfulCount: 7, isAutonomous: true, threshold: 5 });
}

async function trustRow(namespaceId: string, intentName = 'vacation') {
  const [row] = await ctx.container.db
    .select()
    .from(intentTrust)
    .where(and(eq(intentTrust.namespaceId, namespaceId), eq(intentTrust.intentName, intentName)));
  return row!;
}

async function decide(
  caller: TestUser,
  scene: { departmentId: string; namespaceId: string },
  action: 'approve' | 'edit' | 'reject',
) {
  const fixture = await createApprovalFixture(ctx.container, scene);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/approvals/${fixture.approval.id}/${action === 'reject' ? 'reject' : 'approve'}`,
    headers: caller.headers,
    payload: action === 'edit' ? { editedContent: 'Better wording.' } : {},
  });
  expect(res.statusCode).toBe(200);
  return fixture.approval.id;
}

describe('extension: trust.demoteAfter', () => {
  it('N rejections or edits in a row demote an autonomous intent, with an audit entry and notices', async () => {
    const scene = await setup({ trust: { demoteAfter: 3 } });
    await autonomous(scene.namespaceId);
    await decide(scene.approver, scene, 'reject');
    await decide(scene.approver, scene, 'edit');
    expect(await trustRow(scene.namespaceId)).toMatchObject({ consecutiveFailures: 2, isAutonomous: true });
    // A plain approval ends the run.
    await decide(scene.approver, scene, 'approve');
    expect(await trustRow(scene.namespaceId)).toMatchObject({
      consecutiveFailures: 0,
      successfulCount: 8,
      isAutonomous: true,
    });
    await decide(scene.approver, scene, 'edit');
    await decide(scene.approver, scene, 'reject');
    const last = await decide(scene.approver, scene, 'reject');
    const row = await trustRow(scene.namespaceId);
    expect(row).toMatchObject({ isAutonomous: false, successfulCount: 0, consecutiveFailures: 0 });

    const notices = await ctx.container.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, 'system'), eq(notifications.entityId, last)));
    expect(notices.map((n) => n.userId).sort()).toEqual(scene.heads.map((h) => h.user.id).sort());
    const [entry] = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'demote'), eq(auditLogs.entityId, row.id)));
    expect(entry).toMatchObject({
      userId: scene.approver.user.id,
      entityType: 'intents',
      changes: { namespaceId: scene.namespaceId, intent: 'vacation', demoteAfter: 3, approvalId: last },
    });

    // No longer autonomous: further rejections count nothing; approvals earn trust anew.
    await decide(scene.approver, scene, 'reject');
    expect(await trustRow(scene.namespaceId)).toMatchObject({ consecutiveFailures: 0, successfulCount: 0 });
    await decide(scene.approver, scene, 'approve');
    expect(await trustRow(scene.namespaceId)).toMatchObject({ successfulCount: 1, isAutonomous: false });
  });

  it('unset: rejections and edits leave the trust record exactly as it was; approvals count as before', async () => {
    const scene = await setup({});
    await autonomous(scene.namespaceId);
    const before = await trustRow(scene.namespaceId);
    for (let i = 0; i < 4; i++) await decide(scene.approver, scene, i % 2 ? 'edit' : 'reject');
    expect(await trustRow(scene.namespaceId)).toEqual(before);
    await decide(scene.approver, scene, 'approve');
    const after = await trustRow(scene.namespaceId);
    expect(after).toMatchObject({ successfulCount: 8, isAutonomous: true, consecutiveFailures: 0 });
    const notices = await ctx.container.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, 'system'));
    expect(notices.filter((n) => scene.heads.some((h) => h.user.id === n.userId))).toEqual([]);
  });

  it('is refused by the namespace config validation when not a positive integer', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    for (const config of [
      { trust: { demoteAfter: 0 } },
      { trust: { demoteAfter: 'x' } },
      { approvalSlaMinutes: -5 },
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/namespaces',
        headers: admin.headers,
        payload: { name: 'Support', departmentId: admin.user.departmentId, config },
      });
      expect(res.statusCode, JSON.stringify(config)).toBe(422);
    }
    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/namespaces',
      headers: admin.headers,
      payload: {
        name: 'Support',
        departmentId: admin.user.departmentId,
        config: { trust: { demoteAfter: 3 }, approvalSlaMinutes: 30 },
      },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().config).toEqual({ trust: { demoteAfter: 3 }, approvalSlaMinutes: 30 });
  });
});

describe('extension: approvalSlaMinutes', () => {
  it('escalates pending approvals older than the deadline to the department heads, once', async () => {
    const { container, app } = ctx;
    const scene = await setup({ approvalSlaMinutes: 30 });
    const unset = await setup({});
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    const overdue = await createApprovalFixture(container, { ...scene, createdAt: minutesAgo(31) });
    const fresh = await createApprovalFixture(container, { ...scene, createdAt: minutesAgo(5) });
    const noDeadline = await createApprovalFixture(container, { ...unset, createdAt: minutesAgo(600) });

    const escalated = await container.approvals.sla.escalateOverdue(new Date());
    expect(escalated).toContain(overdue.approval.id);
    expect(escalated).not.toContain(fresh.approval.id);
    expect(escalated).not.toContain(noDeadline.approval.id);
    const rows = await container.db
      .select()
      .from(approvals)
      .where(eq(approvals.departmentId, scene.departmentId));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [overdue.approval.id]: 'escalated',
      [fresh.approval.id]: 'pending',
    });
    expect(rows.find((r) => r.id === overdue.approval.id)).toMatchObject({
      escalatedToId: null,
      escalatedToRole: 'dept_head',
      reason: 'Not decided within 30 minutes',
    });
    const notified = await container.db
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, overdue.approval.id));
    expect(notified.map((n) => n.userId).sort()).toEqual(scene.heads.map((h) => h.user.id).sort());
    expect(notified.every((n) => n.type === 'approval_pending')).toBe(true);
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, overdue.conversationId));
    expect(conversation!.status).toBe('escalated');
    const [entry] = await container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityType, 'approvals'), eq(auditLogs.entityId, overdue.approval.id)));
    expect(entry).toMatchObject({ action: 'escalate', userId: null });

    // Repeating the sweep changes and notifies nothing more.
    expect(await container.approvals.sla.escalateOverdue(new Date())).not.toContain(overdue.approval.id);
    const again = await container.db
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, overdue.approval.id));
    expect(again).toHaveLength(2);

    // Escalated to the heads' role: a plain approver may not decide it, a head may.
    const refused = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${overdue.approval.id}/approve`,
      headers: scene.approver.headers,
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    const approved = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${overdue.approval.id}/approve`,
      headers: scene.heads[0]!.headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);
  });

  it('runs each time slot once, whoever asks', async () => {
    const now = new Date();
    const runs = await Promise.all([
      ctx.container.approvals.sla.runSlot(now),
      ctx.container.approvals.sla.runSlot(now),
      ctx.container.approvals.sla.runSlot(now),
    ]);
    expect(runs.filter(Boolean)).toHaveLength(1);
  });
});
