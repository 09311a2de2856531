import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createApprovalFixture } from '../../../test/approval-factories.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import {
  agentTasks,
  approvals,
  conversations,
  evalRuns,
  intentTrust,
  messages,
  replyFeedback,
  trustEvents,
} from '../../core/db/schema/index.js';
import { wilsonLowerBound } from '../intents/trust-evidence.js';

const ctx = useTestApp();

securityChecks(() => ctx, {
  method: 'GET',
  url: '/api/v1/analytics/intents?namespaceId=00000000-0000-4000-8000-000000000000',
  otherDepartmentUrl: async ({ container }) => {
    const other = await createDepartment(container);
    const namespace = await createNamespace(container, { departmentId: other.id });
    return `/api/v1/analytics/intents?namespaceId=${namespace.id}`;
  },
});

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** A moment `hours` before now: inside the last 7 days, whatever the clock says. */
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

interface Seeded {
  departmentId: string;
  namespaceId: string;
  secondNamespaceId: string;
  head: TestUser;
  admin: TestUser;
  latestRunId: string;
}
let seeded: Seeded;

/**
 * One employee message of a namespace as the pipeline leaves it: the inbound message, its task
 * (with the classified intent), and either a reply sent on its own, or an approval (decided or
 * not) with the reply it released when approved or edited. Answers the reply's id, if any.
 */
async function traffic(
  scene: { departmentId: string; namespaceId: string; conversationId: string },
  intent: string,
  at: Date,
  route:
    | { auto: true }
    | {
        status: 'approved' | 'edited' | 'rejected' | 'escalated';
        triggers: string[];
        decidedAfterMin?: number;
      },
): Promise<string | null> {
  const { db } = ctx.container;
  const base = { conversationId: scene.conversationId, channel: 'web', content: 'text' };
  const [inbound] = await db
    .insert(messages)
    .values({ ...base, direction: 'inbound', createdAt: at })
    .returning();
  const [task] = await db
    .insert(agentTasks)
    .values({
      jobId: randomUUID(),
      departmentId: scene.departmentId,
      namespaceId: scene.namespaceId,
      conversationId: scene.conversationId,
      messageId: inbound!.id,
      status: 'done',
      durationMs: 1000,
      output: { intent, reply: 'answer' },
      createdAt: at,
    })
    .returning();
  const replyAt = new Date(at.getTime() + MINUTE / 2);
  if ('auto' in route) {
    const [reply] = await db
      .insert(messages)
      .values({ ...base, direction: 'outbound', status: 'delivered', taskId: task!.id, createdAt: replyAt })
      .returning();
    return reply!.id;
  }
  const decidedAt =
    route.decidedAfterMin === undefined ? null : new Date(at.getTime() + route.decidedAfterMin * MINUTE);
  const [approval] = await db
    .insert(approvals)
    .values({
      taskId: task!.id,
      conversationId: scene.conversationId,
      messageId: inbound!.id,
      departmentId: scene.departmentId,
      namespaceId: scene.namespaceId,
      status: route.status,
      originalContent: 'draft',
      intent,
      triggers: route.triggers.map((type) => ({ type })),
      decidedAt,
      createdAt: at,
    })
    .returning();
  if (route.status !== 'approved' && route.status !== 'edited') return null;
  const [reply] = await db
    .insert(messages)
    .values({
      ...base,
      direction: 'outbound',
      status: 'delivered',
      taskId: task!.id,
      approvalId: approval!.id,
      createdAt: decidedAt ?? replyAt,
    })
    .returning();
  return reply!.id;
}

async function conversationOf(departmentId: string, namespaceId: string) {
  const owner = await createUser(ctx.container, { departmentId });
  const [row] = await ctx.container.db
    .insert(conversations)
    .values({
      channel: 'web',
      channelUserId: owner.user.id,
      userId: owner.user.id,
      departmentId,
      namespaceId,
    })
    .returning();
  return { row: row!, owner };
}

async function rate(messageId: string, user: TestUser, rating: 'up' | 'down') {
  await ctx.container.db
    .insert(replyFeedback)
    .values({ messageId, userId: user.user.id, rating, channel: 'web' });
}

beforeAll(async () => {
  const { container } = ctx;
  const { db } = container;
  const departmentId = (await createDepartment(container)).id;
  const namespaceId = (await createNamespace(container, { departmentId })).id;
  const secondNamespaceId = (await createNamespace(container, { departmentId })).id;
  const { row: conversation, owner } = await conversationOf(departmentId, namespaceId);
  const colleague = await createUser(container, { departmentId });
  const scene = { departmentId, namespaceId, conversationId: conversation.id };

  // vacation: two replies on their own (one rated up by two people, one rated down), an approval
  // approved after 2 minutes, one edited after 10.
  const v1 = await traffic(scene, 'vacation', ago(30), { auto: true });
  const v2 = await traffic(scene, 'vacation', ago(29), { auto: true });
  await traffic(scene, 'vacation', ago(28), {
    status: 'approved',
    triggers: ['not_autonomous', 'low_confidence'],
    decidedAfterMin: 2,
  });
  await traffic(scene, 'vacation', ago(27), {
    status: 'edited',
    triggers: ['not_autonomous'],
    decidedAfterMin: 10,
  });
  await rate(v1!, owner, 'up');
  await rate(v1!, colleague, 'up');
  await rate(v2!, owner, 'down');
  // payroll: one reply on its own (rated down), one rejected after 4 minutes, one escalated.
  const p1 = await traffic(scene, 'payroll', ago(26), { auto: true });
  await traffic(scene, 'payroll', ago(25), {
    status: 'rejected',
    triggers: ['low_confidence'],
    decidedAfterMin: 4,
  });
  await traffic(scene, 'payroll', ago(24), { status: 'escalated', triggers: ['persona_boundary'] });
  await rate(p1!, owner, 'down');
  // Older than the window: counted by neither endpoint.
  await traffic(scene, 'vacation', ago(24 * 9), { auto: true });

  // The department's second namespace: the dashboard counts it, this namespace's analytics do not.
  const second = await conversationOf(departmentId, secondNamespaceId);
  await traffic(
    { departmentId, namespaceId: secondNamespaceId, conversationId: second.row.id },
    'payroll',
    ago(20),
    { auto: true },
  );
  // Another department: in neither.
  const otherDepartment = (await createDepartment(container)).id;
  const otherNamespace = (await createNamespace(container, { departmentId: otherDepartment })).id;
  const other = await conversationOf(otherDepartment, otherNamespace);
  await traffic(
    { departmentId: otherDepartment, namespaceId: otherNamespace, conversationId: other.row.id },
    'vacation',
    ago(20),
    { status: 'approved', triggers: ['not_autonomous'], decidedAfterMin: 1 },
  );

  // Trust: vacation autonomous after five clean approvals; sick_leave has a record and no traffic.
  await db.insert(intentTrust).values([
    { namespaceId, intentName: 'vacation', successfulCount: 5, threshold: 5, isAutonomous: true },
    { namespaceId, intentName: 'sick_leave', successfulCount: 0, threshold: 5, isAutonomous: false },
  ]);
  await db
    .insert(trustEvents)
    .values(Array.from({ length: 5 }, () => ({ namespaceId, intentName: 'vacation', kind: 'clean' })));

  // Evaluation: the latest completed run counts, not an older one nor a later failed one.
  const [, latest] = await db
    .insert(evalRuns)
    .values([
      { namespaceId, status: 'completed', totals: { cases: 3, correct: 1 }, finishedAt: ago(48) },
      { namespaceId, status: 'completed', totals: { cases: 4, correct: 3 }, finishedAt: ago(24) },
      { namespaceId, status: 'failed', error: 'model unreachable', finishedAt: ago(1) },
    ])
    .returning();

  const head = await createUser(container, { role: 'dept_head', departmentId });
  const admin = await createUser(container, { role: 'admin' });
  seeded = { departmentId, namespaceId, secondNamespaceId, head, admin, latestRunId: latest!.id };

  const patched = await ctx.app.inject({
    method: 'PATCH',
    url: `/api/v1/namespaces/${namespaceId}`,
    headers: admin.headers,
    payload: { config: { analytics: { minutesPerReply: 2.5 } } },
  });
  expect(patched.statusCode).toBe(200);
});

const intentsOf = (caller: TestUser, query: string) =>
  ctx.app.inject({ url: `/api/v1/analytics/intents?${query}`, headers: caller.headers });

type Figures = {
  intent: string;
  messages: number;
  autoSent: number;
  hitl: number;
  reasons: Record<string, number>;
  decisions: Record<'approved' | 'edited' | 'rejected' | 'escalated', number>;
  daily: Array<{ date: string; messages: number; autoSent: number; decisions: number }>;
};
const total = (rows: Figures[], pick: (row: Figures) => number) =>
  rows.reduce((sum, row) => sum + pick(row), 0);

describe('GET /analytics/intents', () => {
  it('answers every figure per intent, most messages first, with zeros for a trusted intent without traffic', async () => {
    const res = await intentsOf(seeded.head, `namespaceId=${seeded.namespaceId}&days=7`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ namespaceId: seeded.namespaceId, days: 7 });
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(7 * 24 * HOUR);
    const evaluation = { runId: seeded.latestRunId, correct: 3, total: 4, at: expect.any(String) };
    expect(body.intents.map((i: Figures) => i.intent)).toEqual(['vacation', 'payroll', 'sick_leave']);
    const [vacation, payroll, sickLeave] = body.intents;
    expect(vacation).toMatchObject({
      messages: 4,
      autoSent: 2,
      hitl: 2,
      reasons: { not_autonomous: 2, low_confidence: 1 },
      decisions: { approved: 1, edited: 1, rejected: 0, escalated: 0 },
      // percentile_cont over 2 and 10 minutes.
      minutesToDecision: { p50: 6, p90: 9.2 },
      feedback: { up: 2, down: 1 },
      trust: {
        isAutonomous: true,
        mode: 'count',
        successfulCount: 5,
        threshold: 5,
        lowerBound: Math.round(wilsonLowerBound(5, 5, 0.95)! * 10_000) / 10_000,
        neededForPromotion: 0,
      },
      minutesSaved: 5,
      evaluation,
    });
    expect(payroll).toMatchObject({
      messages: 3,
      autoSent: 1,
      hitl: 2,
      reasons: { low_confidence: 1, persona_boundary: 1 },
      decisions: { approved: 0, edited: 0, rejected: 1, escalated: 1 },
      minutesToDecision: { p50: 4, p90: 4 },
      feedback: { up: 0, down: 1 },
      trust: null,
      minutesSaved: 2.5,
      evaluation,
    });
    expect(sickLeave).toMatchObject({
      messages: 0,
      autoSent: 0,
      hitl: 0,
      reasons: {},
      decisions: { approved: 0, edited: 0, rejected: 0, escalated: 0 },
      minutesToDecision: { p50: null, p90: null },
      feedback: { up: 0, down: 0 },
      trust: { isAutonomous: false, mode: 'count', successfulCount: 0, neededForPromotion: 5 },
      minutesSaved: 0,
    });
    // Every UTC day of the window, the same for each intent, summing to the intent's figures.
    for (const intent of body.intents as Figures[]) {
      expect(intent.daily.length).toBeGreaterThanOrEqual(7);
      expect(intent.daily.length).toBeLessThanOrEqual(8);
      expect(intent.daily.map((d) => d.date)).toEqual(vacation.daily.map((d: { date: string }) => d.date));
      expect(total([intent], () => intent.daily.reduce((s, d) => s + d.messages, 0))).toBe(intent.messages);
      expect(intent.daily.reduce((s, d) => s + d.autoSent, 0)).toBe(intent.autoSent);
      const decided = Object.values(intent.decisions).reduce((s, n) => s + n, 0);
      expect(intent.daily.reduce((s, d) => s + d.decisions, 0)).toBe(decided);
    }
  });

  it('agrees with the dashboard of the same window and department, summed over its namespaces', async () => {
    const query = `days=7`;
    const [dashboard, first, second] = await Promise.all([
      ctx.app.inject({
        url: `/api/v1/analytics/dashboard?${query}&departmentId=${seeded.departmentId}`,
        headers: seeded.head.headers,
      }),
      intentsOf(seeded.head, `namespaceId=${seeded.namespaceId}&${query}`),
      intentsOf(seeded.head, `namespaceId=${seeded.secondNamespaceId}&${query}`),
    ]);
    expect(dashboard.statusCode).toBe(200);
    const d = dashboard.json();
    const rows: Figures[] = [...first.json().intents, ...second.json().intents];
    // The second namespace's figures count too (the dashboard is per department), at the default 3 minutes a reply.
    expect(second.json().intents).toMatchObject([
      { intent: 'payroll', messages: 1, autoSent: 1, minutesSaved: 3 },
    ]);

    const messagesTotal = total(rows, (r) => r.messages);
    expect(messagesTotal).toBe(d.topIntents.reduce((s: number, i: { count: number }) => s + i.count, 0));
    expect(messagesTotal).toBe(d.tasks.total);
    expect(messagesTotal).toBe(d.messages.inbound);
    expect(total(rows, (r) => r.autoSent)).toBe(d.autonomy.autonomousReplies);
    expect(total(rows, (r) => r.hitl)).toBe(d.approvals.total);
    for (const status of ['approved', 'edited', 'rejected', 'escalated'] as const) {
      expect(
        total(rows, (r) => r.decisions[status]),
        status,
      ).toBe(d.approvals.byStatus[status]);
    }
    const reasons: Record<string, number> = {};
    for (const row of rows)
      for (const [reason, count] of Object.entries(row.reasons))
        reasons[reason] = (reasons[reason] ?? 0) + count;
    expect(reasons).toEqual(
      Object.fromEntries(d.hitlReasons.map((r: { reason: string; count: number }) => [r.reason, r.count])),
    );
    // And per UTC day, against the dashboard's series.
    const days = first.json().intents[0].daily.map((day: { date: string }) => day.date);
    expect(d.series.map((day: { date: string }) => day.date)).toEqual(days);
    days.forEach((date: string, i: number) => {
      const day = d.series[i];
      expect(
        total(rows, (r) => r.daily[i]!.messages),
        date,
      ).toBe(day.tasks.total);
      expect(
        total(rows, (r) => r.daily[i]!.autoSent),
        date,
      ).toBe(day.autonomousReplies);
      expect(
        total(rows, (r) => r.daily[i]!.decisions),
        date,
      ).toBe(day.approvals.total - day.approvals.pending);
    });
  });

  it('follows decisions made through the approvals endpoints, trust as GET /intents/trust shows it', async () => {
    const departmentId = (await createDepartment(ctx.container)).id;
    const namespaceId = (await createNamespace(ctx.container, { departmentId })).id;
    const head = await createUser(ctx.container, { role: 'dept_head', departmentId });
    const approved = await createApprovalFixture(ctx.container, {
      departmentId,
      namespaceId,
      intent: 'vacation',
    });
    const edited = await createApprovalFixture(ctx.container, {
      departmentId,
      namespaceId,
      intent: 'vacation',
      triggers: [{ type: 'low_confidence' }],
    });
    const decide = (id: string, payload: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/approvals/${id}/approve`,
        headers: head.headers,
        payload,
      });
    expect((await decide(approved.approval.id, {})).statusCode).toBe(200);
    expect((await decide(edited.approval.id, { editedContent: 'Twenty four days a year.' })).statusCode).toBe(
      200,
    );

    const res = await intentsOf(head, `namespaceId=${namespaceId}&days=1`);
    expect(res.statusCode).toBe(200);
    const [vacation, ...rest] = res.json().intents;
    expect(rest).toEqual([]);
    expect(vacation).toMatchObject({
      intent: 'vacation',
      hitl: 2,
      reasons: { first_interaction: 1, not_autonomous: 1, low_confidence: 1 },
      decisions: { approved: 1, edited: 1, rejected: 0, escalated: 0 },
      evaluation: null,
    });
    expect(vacation.minutesToDecision.p50).toBeGreaterThanOrEqual(0);
    expect(vacation.minutesToDecision.p90).toBeGreaterThanOrEqual(vacation.minutesToDecision.p50);

    const trust = await ctx.app.inject({
      url: `/api/v1/intents/trust?namespaceId=${namespaceId}`,
      headers: head.headers,
    });
    expect(trust.statusCode).toBe(200);
    const record = trust.json().items.find((item: { intentName: string }) => item.intentName === 'vacation');
    expect(record.successfulCount).toBe(1);
    expect(vacation.trust).toEqual({
      isAutonomous: record.isAutonomous,
      mode: record.mode,
      successfulCount: record.successfulCount,
      threshold: record.threshold,
      lowerBound: record.evidence.lowerBound,
      neededForPromotion: record.evidence.neededForPromotion,
    });
  });

  it('shows a global user any namespace, with 30 days by default', async () => {
    const res = await intentsOf(seeded.admin, `namespaceId=${seeded.namespaceId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.days).toBe(30);
    // The message nine days old is inside thirty days.
    expect(body.intents[0]).toMatchObject({ intent: 'vacation', messages: 5, autoSent: 3 });
    expect(body.intents[0].daily.length).toBeGreaterThanOrEqual(30);
    expect(body.intents[0].daily.length).toBeLessThanOrEqual(31);
  });

  it('answers 404 for a namespace outside the caller’s departments or missing', async () => {
    const elsewhere = await createUser(ctx.container, { role: 'dept_head' });
    for (const [caller, id] of [
      [elsewhere, seeded.namespaceId],
      [seeded.admin, randomUUID()],
    ] as const) {
      const res = await intentsOf(caller, `namespaceId=${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NotFoundError', message: `Namespace ${id} not found` });
    }
  });

  it.each([
    ['days=0', 'days'],
    ['days=91', 'days'],
    ['namespaceId=not-a-uuid', 'namespaceId'],
    ['', 'namespaceId'],
  ])('answers 422 for "%s"', async (query, field) => {
    const namespace =
      query.includes('namespaceId') || query === '' ? '' : `namespaceId=${seeded.namespaceId}&`;
    const res = await intentsOf(seeded.head, `${namespace}${query}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    expect(JSON.stringify(res.json().details)).toContain(field);
  });

  it('validates config.analytics.minutesPerReply and leaves the namespace unchanged on 422', async () => {
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/namespaces/${seeded.namespaceId}`,
      headers: seeded.admin.headers,
      payload: { config: { analytics: { minutesPerReply: 601 } } },
    });
    expect(res.statusCode).toBe(422);
    const after = await intentsOf(seeded.head, `namespaceId=${seeded.namespaceId}&days=7`);
    expect(after.json().intents[0].minutesSaved).toBe(5);
  });
});
