import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createApprovalFixture } from '../../../test/approval-factories.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { createReply } from '../../../test/feedback-factories.js';
import { auditLogs, notifications } from '../../core/db/schema/index.js';
import { NO_ANSWER_TEXTS } from '../../core/llm/extractive-responder.js';
import { wilsonLowerBound } from '../intents/trust-evidence.js';

const ctx = useTestApp();

interface Scene {
  departmentId: string;
  namespaceId: string;
  approver: TestUser;
  manager: TestUser;
  heads: TestUser[];
}

async function setup(config: Record<string, unknown> = {}): Promise<Scene> {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id, config });
  return {
    departmentId: department.id,
    namespaceId: namespace.id,
    approver: await createUser(ctx.container, { role: 'approver', departmentId: department.id }),
    manager: await createUser(ctx.container, { role: 'dept_head', departmentId: department.id }),
    heads: [await createUser(ctx.container, { role: 'dept_head', departmentId: department.id })],
  };
}

type Draft = { confidence?: number; sources?: boolean; reply?: string; intent?: string };

async function pending(scene: Scene, draft: Draft = {}) {
  const fixture = await createApprovalFixture(ctx.container, {
    departmentId: scene.departmentId,
    namespaceId: scene.namespaceId,
    ...draft,
  });
  return fixture.approval.id;
}

async function decide(scene: Scene, action: 'approve' | 'reject' | 'edit', draft: Draft = {}) {
  const id = await pending(scene, draft);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/approvals/${id}/${action === 'reject' ? 'reject' : 'approve'}`,
    headers: scene.approver.headers,
    payload: action === 'edit' ? { editedContent: 'Better wording.' } : {},
  });
  expect(res.statusCode).toBe(200);
  return { id, body: res.json() };
}

async function batchApprove(scene: Scene, drafts: Draft[]) {
  const ids = [];
  for (const draft of drafts) ids.push(await pending(scene, draft));
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/approvals/batch',
    headers: scene.approver.headers,
    payload: { decisions: ids.map((approvalId) => ({ approvalId, action: 'approve' })) },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().results.every((r: { status: string }) => r.status === 'success')).toBe(true);
  return ids;
}

async function trustOf(scene: Scene, intent = 'vacation') {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/intents/trust?namespaceId=${scene.namespaceId}`,
    headers: scene.manager.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().items.find((item: { intentName: string }) => item.intentName === intent);
}

async function approvalTrust(scene: Scene, id: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/approvals/${id}`,
    headers: scene.approver.headers,
  });
  return res.json().trust;
}

async function auditOf(action: string, entityId: string) {
  return ctx.container.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.entityId, entityId)));
}

describe('trust: only grounded answers count', () => {
  it('five plain approvals of ungrounded drafts leave the intent supervised; five grounded ones promote it', async () => {
    const scene = await setup();
    const ungrounded: Draft[] = [
      { confidence: 0.41 },
      { confidence: 0.69 },
      { sources: false, confidence: 0 },
      { reply: NO_ANSWER_TEXTS[1]!, confidence: 0.91 },
    ];
    const single = [];
    for (const draft of ungrounded.slice(0, 3)) single.push((await decide(scene, 'approve', draft)).id);
    // Batch approvals are decisions like any other.
    const batched = await batchApprove(scene, ungrounded.slice(3).concat({ confidence: 0.2 }));
    for (const id of [...single, ...batched]) {
      expect(await approvalTrust(scene, id)).toEqual({ counted: false, reason: 'no_grounded_answer' });
    }
    expect(await trustOf(scene)).toMatchObject({
      successfulCount: 0,
      isAutonomous: false,
      evidence: { notCounted: 5, counted: 0, cleanApprovals: 0, neededForPromotion: 5 },
    });

    const grounded = [];
    for (let i = 0; i < 3; i++) grounded.push((await decide(scene, 'approve')).id);
    expect(await trustOf(scene)).toMatchObject({ successfulCount: 3, isAutonomous: false });
    grounded.push(...(await batchApprove(scene, [{}, {}])));
    for (const id of grounded) expect(await approvalTrust(scene, id)).toEqual({ counted: true });
    expect(await trustOf(scene)).toMatchObject({
      mode: 'count',
      successfulCount: 5,
      isAutonomous: true,
      evidence: { notCounted: 5, counted: 5, cleanApprovals: 5, neededForPromotion: 0 },
    });
  });

  it('an approval of the unknown intent never counts, and says why', async () => {
    const scene = await setup();
    const { id } = await decide(scene, 'approve', { intent: 'unknown' });
    expect(await approvalTrust(scene, id)).toEqual({ counted: false, reason: 'unknown_intent' });
    // Pending and escalated approvals have not touched trust yet.
    expect(await approvalTrust(scene, await pending(scene))).toBeNull();
  });
});

describe('trust: confidence mode', () => {
  const policy = { trust: { policy: { mode: 'confidence', targetRate: 0.85, confidenceLevel: 0.95 } } };

  it('promotes exactly when the lower bound reaches the target, and rejections demote with notices', async () => {
    const scene = await setup(policy);
    for (let n = 1; n <= 16; n++) {
      await decide(scene, 'approve');
      const bound = wilsonLowerBound(n, n, 0.95)!;
      const record = await trustOf(scene);
      expect(record.isAutonomous).toBe(bound >= 0.85);
      expect(record.evidence.lowerBound).toBeCloseTo(bound, 4);
      if (n === 15) expect(record.evidence.neededForPromotion).toBe(1);
    }
    const record = await trustOf(scene);
    expect(record).toMatchObject({ mode: 'confidence', isAutonomous: true });
    expect(await auditOf('promote', record.id)).toHaveLength(1);
    // Ungrounded approvals are not evidence either way.
    await decide(scene, 'approve', { confidence: 0.3 });
    expect((await trustOf(scene)).evidence).toMatchObject({ counted: 16, notCounted: 1 });

    // 16 of 17: the bound (0.77) falls below 0.85 − 0.05.
    const { id: rejected } = await decide(scene, 'reject');
    const after = await trustOf(scene);
    expect(after).toMatchObject({ isAutonomous: false, evidence: { counted: 17, rejections: 1 } });
    const [entry] = await auditOf('demote', after.id);
    expect(entry).toMatchObject({
      userId: scene.approver.user.id,
      entityType: 'intents',
      changes: { intent: 'vacation', mode: 'confidence', namespaceId: scene.namespaceId },
    });
    const notices = await ctx.container.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, 'system'), eq(notifications.entityId, rejected)));
    expect(notices.map((n) => n.userId).sort()).toEqual(
      [scene.manager.user.id, ...scene.heads.map((h) => h.user.id)].sort(),
    );
  });

  it('keeps autonomy while the bound stays above target − margin', async () => {
    const scene = await setup(policy);
    for (let n = 0; n < 30; n++) await decide(scene, 'approve');
    await decide(scene, 'edit');
    // 30 of 31: 0.86, inside the margin.
    expect(await trustOf(scene)).toMatchObject({ isAutonomous: true, evidence: { edits: 1, counted: 31 } });
  });

  it('a "down" rating of an auto-sent reply counts as a rejection; withdrawn, it no longer does', async () => {
    const scene = await setup(policy);
    for (let n = 0; n < 16; n++) await decide(scene, 'approve');
    expect((await trustOf(scene)).isAutonomous).toBe(true);
    const messageId = randomUUID();
    const rate = (rating: 'up' | 'down' | null) =>
      ctx.container.db.transaction((tx) =>
        ctx.container.approvals.trust.afterFeedback(tx, {
          namespaceId: scene.namespaceId,
          intentName: 'vacation',
          messageId,
          departmentId: scene.departmentId,
          rating,
          actorUserId: null,
        }),
      );
    const effects = await rate('down');
    expect(effects.notifications.map((n) => n.userId).sort()).toEqual(
      [scene.manager.user.id, ...scene.heads.map((h) => h.user.id)].sort(),
    );
    expect(effects.audit).toMatchObject([{ action: 'demote', entityType: 'intents' }]);
    expect(await trustOf(scene)).toMatchObject({ isAutonomous: false, evidence: { rejections: 1 } });
    // The same reply rated down again is still one rejection.
    await rate('down');
    expect((await trustOf(scene)).evidence.rejections).toBe(1);
    await rate('up');
    expect((await trustOf(scene)).evidence).toMatchObject({ rejections: 0, counted: 16 });
  });

  it('an employee\'s "down" on the web demotes an autonomous intent, with the audit entry and notices', async () => {
    const scene = await setup(policy);
    for (let n = 0; n < 16; n++) await decide(scene, 'approve');
    const employee = await createUser(ctx.container, { departmentId: scene.departmentId });
    const { reply } = await createReply(
      ctx.container,
      { ...scene, employee, phone: '380000000000' },
      { channel: 'web' },
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/conversations/web/messages/${reply.id}/feedback`,
      headers: employee.headers,
      payload: { rating: 'down', comment: 'That is last year’s number.' },
    });
    expect(res.statusCode).toBe(200);
    const record = await trustOf(scene);
    expect(record).toMatchObject({ isAutonomous: false, evidence: { rejections: 1 } });
    const [entry] = await auditOf('demote', record.id);
    expect(entry).toMatchObject({
      userId: employee.user.id,
      changes: { mode: 'confidence', intent: 'vacation' },
    });
    const notices = await ctx.container.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, 'system'), eq(notifications.entityId, reply.id)));
    // The heads hear of the demotion; the approvers (heads included) of the "down" itself.
    expect(new Set(notices.map((n) => n.userId))).toEqual(
      new Set([scene.approver.user.id, scene.manager.user.id, ...scene.heads.map((h) => h.user.id)]),
    );
  });

  it('the count mode ignores ratings for autonomy', async () => {
    const scene = await setup();
    for (let n = 0; n < 5; n++) await decide(scene, 'approve');
    const effects = await ctx.container.db.transaction((tx) =>
      ctx.container.approvals.trust.afterFeedback(tx, {
        namespaceId: scene.namespaceId,
        intentName: 'vacation',
        messageId: randomUUID(),
        departmentId: scene.departmentId,
        rating: 'down',
        actorUserId: null,
      }),
    );
    expect(effects).toEqual({ notifications: [], audit: [] });
    expect(await trustOf(scene)).toMatchObject({ isAutonomous: true });
  });

  it('refuses an invalid policy', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    for (const trust of [
      { policy: { mode: 'vibes' } },
      { policy: { window: 2 } },
      { policy: { targetRate: 1.2 } },
      { policy: { confidenceLevel: 1 } },
      { policy: { margin: -0.1 } },
      { policy: { extra: true } },
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/namespaces',
        headers: admin.headers,
        payload: { name: 'Policy', departmentId: admin.user.departmentId, config: { trust } },
      });
      expect(res.statusCode, JSON.stringify(trust)).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
  });
});
