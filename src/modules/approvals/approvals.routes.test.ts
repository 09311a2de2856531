import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createApprovalFixture, outboundOf } from '../../../test/approval-factories.js';
import { createDepartment, createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import {
  approvals,
  auditLogs,
  conversations,
  intentInteractions,
  intentTrust,
  notifications,
} from '../../core/db/schema/index.js';

const ctx = useTestApp();
const getCtx = () => ctx;

async function otherDepartmentApprovalUrl(suffix = '') {
  const fixture = await createApprovalFixture(ctx.container);
  return `/api/v1/approvals/${fixture.approval.id}${suffix}`;
}

securityChecks(getCtx, { method: 'GET', url: '/api/v1/approvals', permission: 'canApprove' });
securityChecks(getCtx, {
  method: 'GET',
  url: `/api/v1/approvals/${randomUUID()}`,
  permission: 'canApprove',
  otherDepartmentUrl: () => otherDepartmentApprovalUrl(),
});
securityChecks(getCtx, {
  method: 'POST',
  url: `/api/v1/approvals/${randomUUID()}/approve`,
  payload: {},
  permission: 'canApprove',
  otherDepartmentUrl: () => otherDepartmentApprovalUrl('/approve'),
});
securityChecks(getCtx, {
  method: 'POST',
  url: `/api/v1/approvals/${randomUUID()}/reject`,
  payload: { reason: 'wrong' },
  permission: 'canApprove',
  otherDepartmentUrl: () => otherDepartmentApprovalUrl('/reject'),
});
securityChecks(getCtx, {
  method: 'POST',
  url: `/api/v1/approvals/${randomUUID()}/escalate`,
  payload: { escalatedToId: randomUUID() },
  permission: 'canEscalate',
  otherDepartmentUrl: () => otherDepartmentApprovalUrl('/escalate'),
});
securityChecks(getCtx, {
  method: 'POST',
  url: '/api/v1/approvals/batch',
  payload: { decisions: [{ approvalId: randomUUID(), action: 'reject' }] },
  permission: 'canApprove',
});

async function approverOf(departmentId: string, role = 'approver') {
  return createUser(ctx.container, { role, departmentId });
}

async function trustOf(namespaceId: string, intent: string) {
  const [row] = await ctx.container.db
    .select()
    .from(intentTrust)
    .where(and(eq(intentTrust.namespaceId, namespaceId), eq(intentTrust.intentName, intent)));
  return row ?? null;
}

async function auditOf(approvalId: string) {
  return ctx.container.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.entityType, 'approvals'), eq(auditLogs.entityId, approvalId)));
}

describe('GET /approvals', () => {
  it('lists the pending approvals of the caller departments only, oldest first', async () => {
    const { container, app } = ctx;
    const first = await createApprovalFixture(container, { createdAt: new Date('2026-01-01T10:00:00Z') });
    const second = await createApprovalFixture(container, {
      departmentId: first.departmentId,
      namespaceId: first.namespaceId,
      createdAt: new Date('2026-01-01T09:00:00Z'),
    });
    const elsewhere = await createApprovalFixture(container);
    const approver = await approverOf(first.departmentId);
    const res = await app.inject({ method: 'GET', url: '/api/v1/approvals', headers: approver.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((a: { id: string }) => a.id)).toEqual([second.approval.id, first.approval.id]);
    expect(body).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(body.items.map((a: { id: string }) => a.id)).not.toContain(elsewhere.approval.id);
    expect(body.items[1]).toMatchObject({
      status: 'pending',
      channel: 'web',
      sender: { id: first.employee.user.id, name: first.employee.user.name },
      question: 'How many vacation days do I get?',
      intent: 'vacation',
      reasons: [{ type: 'first_interaction' }, { type: 'not_autonomous' }],
    });
  });

  it('filters by namespace, intent, reason and status', async () => {
    const { container, app } = ctx;
    const low = await createApprovalFixture(container, {
      intent: 'payroll',
      triggers: [{ type: 'low_confidence', confidence: 0.4, threshold: 0.7 }],
    });
    const other = await createApprovalFixture(container, { departmentId: low.departmentId });
    const approver = await approverOf(low.departmentId);
    const list = async (query: string) => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/approvals?${query}`,
        headers: approver.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json().items.map((a: { id: string }) => a.id);
    };
    expect(await list(`namespaceId=${other.namespaceId}`)).toEqual([other.approval.id]);
    expect(await list('intent=payroll')).toEqual([low.approval.id]);
    expect(await list('reason=low_confidence')).toEqual([low.approval.id]);
    expect(await list('reason=first_interaction')).toEqual([other.approval.id]);
    expect(await list('status=rejected')).toEqual([]);
    await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${low.approval.id}/reject`,
      headers: approver.headers,
      payload: {},
    });
    expect(await list('status=rejected')).toEqual([low.approval.id]);
    expect(await list(`departmentId=${low.departmentId}`)).toEqual([other.approval.id]);
  });

  it('answers 403 for a departmentId outside the caller departments and 422 for bad filters', async () => {
    const { container, app } = ctx;
    const approver = await approverOf((await createDepartment(container)).id);
    const other = await createDepartment(container);
    const forbidden = await app.inject({
      method: 'GET',
      url: `/api/v1/approvals?departmentId=${other.id}`,
      headers: approver.headers,
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('ForbiddenError');
    for (const query of ['limit=101', 'status=done', 'reason=Not-A-Type', 'namespaceId=nope']) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/approvals?${query}`,
        headers: approver.headers,
      });
      expect(res.statusCode, query).toBe(422);
    }
  });
});

describe('GET /approvals/:id', () => {
  it('answers the reply, its sources with chunk text, context, reasons, sender and history', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/approvals/${fixture.approval.id}`,
      headers: approver.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: fixture.approval.id,
      question: 'How many vacation days do I get?',
      originalContent: 'You get twenty four days of paid vacation.',
      intent: 'vacation',
      confidence: 0.93,
      sender: { id: fixture.employee.user.id },
      reasons: [{ type: 'first_interaction' }, { type: 'not_autonomous' }],
      sources: [
        {
          chunkId: fixture.chunk.id,
          documentId: fixture.chunk.documentId,
          title: 'Vacation policy',
          score: 0.93,
          content: fixture.chunk.content,
        },
      ],
      context: { channel: 'web', userMessage: { content: 'How many vacation days do I get?' } },
      history: [],
    });

    await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/reject`,
      headers: approver.headers,
      payload: { reason: 'Outdated policy' },
    });
    const after = await app.inject({
      method: 'GET',
      url: `/api/v1/approvals/${fixture.approval.id}`,
      headers: approver.headers,
    });
    expect(after.json().history).toEqual([
      expect.objectContaining({
        action: 'reject',
        userId: approver.user.id,
        userName: approver.user.name,
        changes: { reason: 'Outdated policy' },
      }),
    ]);
  });

  it('answers 404 for an unknown id and 422 for a malformed one', async () => {
    const { app, container } = ctx;
    const approver = await approverOf((await createDepartment(container)).id);
    const missing = await app.inject({
      method: 'GET',
      url: `/api/v1/approvals/${randomUUID()}`,
      headers: approver.headers,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await app.inject({ method: 'GET', url: '/api/v1/approvals/nope', headers: approver.headers });
    expect(bad.statusCode).toBe(422);
  });
});

describe('POST /approvals/:id/approve', () => {
  it('plain: approved, the original reply is delivered, the intent counts one, the conversation reopens', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'approved',
      decidedById: approver.user.id,
      editedContent: null,
    });
    const [message] = await outboundOf(container, fixture.approval.id);
    expect(message).toMatchObject({
      direction: 'outbound',
      status: 'delivered',
      content: 'You get twenty four days of paid vacation.',
    });
    expect(await trustOf(fixture.namespaceId, 'vacation')).toMatchObject({
      successfulCount: 1,
      isAutonomous: false,
    });
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, fixture.conversationId));
    expect(conversation!.status).toBe('open');
    const [interaction] = await container.db
      .select()
      .from(intentInteractions)
      .where(eq(intentInteractions.userId, fixture.employee.user.id));
    expect(interaction).toMatchObject({ namespaceId: fixture.namespaceId, intentName: 'vacation' });
    const [entry] = await auditOf(fixture.approval.id);
    expect(entry).toMatchObject({ action: 'approve', userId: approver.user.id, changes: {} });

    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ConflictError');
    expect(await outboundOf(container, fixture.approval.id)).toHaveLength(1);
  });

  it('edited: the edited text is queued on channel A with its job, status edited, nothing counted', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container, { channel: 'chanA' });
    const approver = await approverOf(fixture.departmentId);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: approver.headers,
      payload: { editedContent: 'You get 24 days; ask HR about carry-over.' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'edited',
      editedContent: 'You get 24 days; ask HR about carry-over.',
    });
    const [message] = await outboundOf(container, fixture.approval.id);
    expect(message).toMatchObject({ status: 'queued', content: 'You get 24 days; ask HR about carry-over.' });
    const job = await container.queue.getJob('chanA-outbound', `outbound-${message!.id}`);
    expect(job?.data).toEqual({ messageId: message!.id });
    expect(await trustOf(fixture.namespaceId, 'vacation')).toBeNull();
    const [entry] = await auditOf(fixture.approval.id);
    expect(entry).toMatchObject({
      action: 'approve',
      userId: approver.user.id,
      changes: { editedContent: 'You get 24 days; ask HR about carry-over.' },
    });
  });

  it('answers 422 for an empty edit and changes nothing', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    for (const payload of [
      { editedContent: '   ' },
      { editedContent: '' },
      { editedContent: 'x'.repeat(16_001) },
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/approvals/${fixture.approval.id}/approve`,
        headers: approver.headers,
        payload,
      });
      expect(res.statusCode).toBe(422);
    }
    const [row] = await container.db.select().from(approvals).where(eq(approvals.id, fixture.approval.id));
    expect(row!.status).toBe('pending');
    expect(await outboundOf(container, fixture.approval.id)).toHaveLength(0);
  });

  it('answers 404 for an unknown approval', async () => {
    const { container, app } = ctx;
    const approver = await approverOf((await createDepartment(container)).id);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${randomUUID()}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(404);
  });

  it('of 10 parallel approvals exactly one wins, nine get 409, one message and one job exist', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container, { channel: 'chanA' });
    const approver = await approverOf(fixture.departmentId);
    const before = await container.queue.counts('chanA-outbound');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        app.inject({
          method: 'POST',
          url: `/api/v1/approvals/${fixture.approval.id}/approve`,
          headers: approver.headers,
          payload: {},
        }),
      ),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const sent = await outboundOf(container, fixture.approval.id);
    expect(sent).toHaveLength(1);
    const after = await container.queue.counts('chanA-outbound');
    const queued = (c: typeof after) => c.waiting + c.delayed + c.active + c.completed + c.failed;
    expect(queued(after) - queued(before)).toBe(1);
    expect(await container.queue.getJob('chanA-outbound', `outbound-${sent[0]!.id}`)).not.toBeNull();
    expect(await trustOf(fixture.namespaceId, 'vacation')).toMatchObject({ successfulCount: 1 });
  });
});

describe('POST /approvals/:id/reject', () => {
  it('rejects with the reason, sends nothing, counts nothing', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/reject`,
      headers: approver.headers,
      payload: { reason: 'The policy changed' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'rejected', reason: 'The policy changed' });
    expect(await outboundOf(container, fixture.approval.id)).toHaveLength(0);
    expect(await trustOf(fixture.namespaceId, 'vacation')).toBeNull();
    const [entry] = await auditOf(fixture.approval.id);
    expect(entry).toMatchObject({
      action: 'reject',
      userId: approver.user.id,
      changes: { reason: 'The policy changed' },
    });
    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/reject`,
      headers: approver.headers,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
  });

  it('answers 422 for a reason over 2000 characters', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/reject`,
      headers: approver.headers,
      payload: { reason: 'x'.repeat(2001) },
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('POST /approvals/:id/escalate', () => {
  it('escalates to an approver of the department, who is notified and may decide it', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const target = await approverOf(fixture.departmentId);
    const bystander = await approverOf(fixture.departmentId);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/escalate`,
      headers: approver.headers,
      payload: { escalatedToId: target.user.id, reason: 'Needs a second look' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'escalated',
      escalatedToId: target.user.id,
      reason: 'Needs a second look',
    });
    const rows = await container.db
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, fixture.approval.id));
    expect(rows.map((n) => [n.userId, n.type])).toEqual([[target.user.id, 'approval_pending']]);
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, fixture.conversationId));
    expect(conversation!.status).toBe('escalated');
    const [entry] = await auditOf(fixture.approval.id);
    expect(entry).toMatchObject({ action: 'escalate', userId: approver.user.id });

    const refused = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: bystander.headers,
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    const approved = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/approve`,
      headers: target.headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('approved');
  });

  it('lets a department head decide an approval escalated to someone else', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const target = await approverOf(fixture.departmentId);
    const head = await approverOf(fixture.departmentId, 'dept_head');
    await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/escalate`,
      headers: approver.headers,
      payload: { escalatedToId: target.user.id },
    });
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/reject`,
      headers: head.headers,
      payload: { reason: 'No' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('rejected');
  });

  it('answers 422 for a target that is the caller, inactive, unknown or no approver there', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const inactive = await createUser(container, {
      role: 'approver',
      departmentId: fixture.departmentId,
      isActive: false,
    });
    const employee = await createUser(container, { departmentId: fixture.departmentId });
    const elsewhere = await approverOf((await createDepartment(container)).id);
    const revoked = await createUser(container, {
      role: 'approver',
      departmentId: fixture.departmentId,
      revokedPermissions: ['canApprove'],
    });
    for (const target of [
      approver.user.id,
      inactive.user.id,
      employee.user.id,
      elsewhere.user.id,
      revoked.user.id,
      randomUUID(),
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/approvals/${fixture.approval.id}/escalate`,
        headers: approver.headers,
        payload: { escalatedToId: target },
      });
      expect(res.statusCode, target).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
    const missingTarget = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/escalate`,
      headers: approver.headers,
      payload: {},
    });
    expect(missingTarget.statusCode).toBe(422);
    const [row] = await container.db.select().from(approvals).where(eq(approvals.id, fixture.approval.id));
    expect(row!.status).toBe('pending');
    const notified = await container.db
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, fixture.approval.id));
    expect(notified).toHaveLength(0);
  });

  it('answers 409 for an approval already decided', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const target = await approverOf(fixture.departmentId);
    await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/reject`,
      headers: approver.headers,
      payload: {},
    });
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${fixture.approval.id}/escalate`,
      headers: approver.headers,
      payload: { escalatedToId: target.user.id },
    });
    expect(res.statusCode).toBe(409);
  });
});

describe('POST /approvals/batch', () => {
  it('decides each entry on its own and reports success or the error of each', async () => {
    const { container, app } = ctx;
    const a = await createApprovalFixture(container);
    const b = await createApprovalFixture(container, {
      departmentId: a.departmentId,
      namespaceId: a.namespaceId,
    });
    const decided = await createApprovalFixture(container, {
      departmentId: a.departmentId,
      namespaceId: a.namespaceId,
    });
    const foreign = await createApprovalFixture(container);
    const approver = await approverOf(a.departmentId);
    await container.db
      .update(approvals)
      .set({ status: 'rejected' })
      .where(eq(approvals.id, decided.approval.id));
    const missing = randomUUID();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/approvals/batch',
      headers: approver.headers,
      payload: {
        decisions: [
          { approvalId: a.approval.id, action: 'approve' },
          { approvalId: decided.approval.id, action: 'approve' },
          { approvalId: b.approval.id, action: 'reject', reason: 'Off topic' },
          { approvalId: foreign.approval.id, action: 'reject' },
          { approvalId: missing, action: 'approve', editedContent: 'x' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toEqual([
      { approvalId: a.approval.id, status: 'success' },
      {
        approvalId: decided.approval.id,
        status: 'error',
        error: 'ConflictError',
        message: `Approval ${decided.approval.id} is already rejected`,
      },
      { approvalId: b.approval.id, status: 'success' },
      {
        approvalId: foreign.approval.id,
        status: 'error',
        error: 'NotFoundError',
        message: `Approval ${foreign.approval.id} not found`,
      },
      {
        approvalId: missing,
        status: 'error',
        error: 'NotFoundError',
        message: `Approval ${missing} not found`,
      },
    ]);
    const statuses = await container.db
      .select()
      .from(approvals)
      .where(eq(approvals.departmentId, a.departmentId));
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [a.approval.id]: 'approved',
      [b.approval.id]: 'rejected',
      [decided.approval.id]: 'rejected',
    });
    expect(await outboundOf(container, a.approval.id)).toHaveLength(1);
    expect(await outboundOf(container, b.approval.id)).toHaveLength(0);
    expect(await auditOf(a.approval.id)).toEqual([
      expect.objectContaining({
        action: 'approve',
        userId: approver.user.id,
        changes: { action: 'approve', batch: true },
      }),
    ]);
    expect(await auditOf(b.approval.id)).toEqual([
      expect.objectContaining({
        action: 'reject',
        changes: { action: 'reject', reason: 'Off topic', batch: true },
      }),
    ]);
    expect(await auditOf(decided.approval.id)).toEqual([]);
    const whole = await container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, approver.user.id), eq(auditLogs.action, 'create')));
    expect(whole).toEqual([]);
  });

  it('answers 422 for more than 50 decisions, none, or an unknown action, and decides nothing', async () => {
    const { container, app } = ctx;
    const fixture = await createApprovalFixture(container);
    const approver = await approverOf(fixture.departmentId);
    const payloads = [
      {
        decisions: Array.from({ length: 51 }, () => ({ approvalId: fixture.approval.id, action: 'reject' })),
      },
      { decisions: [] },
      { decisions: [{ approvalId: fixture.approval.id, action: 'escalate' }] },
    ];
    for (const payload of payloads) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/approvals/batch',
        headers: approver.headers,
        payload,
      });
      expect(res.statusCode).toBe(422);
    }
    const [row] = await container.db.select().from(approvals).where(eq(approvals.id, fixture.approval.id));
    expect(row!.status).toBe('pending');
  });
});
