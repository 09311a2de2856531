import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { agentTasks, approvals, conversations, messages } from '../../core/db/schema/index.js';

const ctx = useTestApp();

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/analytics/dashboard?days=7' });

const WINDOW = 'from=2026-01-01T00:00:00.000Z&to=2026-01-04T00:00:00.000Z';
const at = (iso: string) => new Date(iso);

interface Seeded {
  a: string;
  b: string;
  c: string;
  head: TestUser;
  admin: TestUser;
}
let seeded: Seeded;

/** A conversation of a department, for messages and approvals. */
async function conversation(departmentId: string, channel: string) {
  const owner = await createUser(ctx.container, { departmentId });
  const [row] = await ctx.container.db
    .insert(conversations)
    .values({ channel, channelUserId: randomUUID(), userId: owner.user.id, departmentId })
    .returning();
  return row!;
}

async function task(
  departmentId: string,
  createdAt: string,
  values: {
    status: string;
    durationMs?: number | null;
    tokens?: [number, number];
    costUsd?: number;
    intent?: string;
  },
) {
  const [input, output] = values.tokens ?? [0, 0];
  const [row] = await ctx.container.db
    .insert(agentTasks)
    .values({
      jobId: randomUUID(),
      departmentId,
      status: values.status,
      durationMs: values.durationMs ?? null,
      inputTokens: input,
      outputTokens: output,
      totalTokens: input + output,
      costUsd: values.costUsd ?? 0,
      output: values.intent ? { intent: values.intent } : null,
      createdAt: at(createdAt),
    })
    .returning();
  return row!;
}

async function message(
  conversationId: string,
  channel: string,
  createdAt: string,
  values: { direction: 'inbound' | 'outbound'; taskId?: string; approvalId?: string },
) {
  await ctx.container.db.insert(messages).values({
    conversationId,
    channel,
    direction: values.direction,
    content: 'text',
    status: values.direction === 'outbound' ? 'sent' : null,
    taskId: values.taskId ?? null,
    approvalId: values.approvalId ?? null,
    createdAt: at(createdAt),
  });
}

async function approval(
  conversationId: string,
  departmentId: string,
  createdAt: string,
  values: { status: string; decidedAfterMs?: number; triggers: string[] },
) {
  const created = at(createdAt);
  const [row] = await ctx.container.db
    .insert(approvals)
    .values({
      conversationId,
      departmentId,
      status: values.status,
      originalContent: 'draft',
      triggers: values.triggers.map((type) => ({ type })),
      decidedAt:
        values.decidedAfterMs === undefined ? null : new Date(created.getTime() + values.decidedAfterMs),
      createdAt: created,
    })
    .returning();
  return row!;
}

beforeAll(async () => {
  const { container } = ctx;
  const [a, b, c] = [
    (await createDepartment(container)).id,
    (await createDepartment(container)).id,
    (await createDepartment(container)).id,
  ];
  // Department A, 1 January: two replies (one sent on its own, one after a human), a failed task.
  const convA = await conversation(a, 'chanA');
  const t1 = await task(a, '2026-01-01T09:00:00Z', {
    status: 'done',
    durationMs: 1000,
    tokens: [100, 20],
    costUsd: 0.01,
    intent: 'vacation',
  });
  const t2 = await task(a, '2026-01-01T10:00:00Z', {
    status: 'done',
    durationMs: 3000,
    tokens: [200, 40],
    costUsd: 0.02,
    intent: 'vacation',
  });
  await task(a, '2026-01-01T11:00:00Z', { status: 'failed', durationMs: 5000 });
  const a1 = await approval(convA.id, a, '2026-01-01T10:00:00Z', {
    status: 'approved',
    decidedAfterMs: 60_000,
    triggers: ['not_autonomous', 'low_confidence'],
  });
  for (const time of ['09:00', '10:00', '11:00']) {
    await message(convA.id, 'chanA', `2026-01-01T${time}:00Z`, { direction: 'inbound' });
  }
  await message(convA.id, 'chanA', '2026-01-01T09:00:05Z', { direction: 'outbound', taskId: t1.id });
  await message(convA.id, 'chanA', '2026-01-01T10:01:00Z', {
    direction: 'outbound',
    taskId: t2.id,
    approvalId: a1.id,
  });
  // Department B, 2 January: one reply on its own, a timeout, a human's own message, two approvals.
  const convB = await conversation(b, 'chanB');
  const t4 = await task(b, '2026-01-02T08:00:00Z', {
    status: 'done',
    durationMs: 2000,
    tokens: [50, 10],
    costUsd: 0.005,
    intent: 'payroll',
  });
  await task(b, '2026-01-02T09:00:00Z', { status: 'timeout', durationMs: 4000 });
  await approval(convB.id, b, '2026-01-02T09:00:00Z', {
    status: 'rejected',
    decidedAfterMs: 180_000,
    triggers: ['not_autonomous'],
  });
  await approval(convB.id, b, '2026-01-02T12:00:00Z', { status: 'pending', triggers: ['first_interaction'] });
  await message(convB.id, 'chanB', '2026-01-02T08:00:00Z', { direction: 'inbound' });
  await message(convB.id, 'chanB', '2026-01-02T09:00:00Z', { direction: 'inbound' });
  await message(convB.id, 'chanB', '2026-01-02T08:00:03Z', { direction: 'outbound', taskId: t4.id });
  await message(convB.id, 'chanB', '2026-01-02T13:00:00Z', { direction: 'outbound' });
  // Outside the window: the day before and the day after.
  await task(a, '2025-12-31T23:59:59Z', { status: 'done', durationMs: 9000, intent: 'vacation' });
  await task(a, '2026-01-04T00:00:00Z', { status: 'done', durationMs: 9000, intent: 'vacation' });
  await message(convA.id, 'chanA', '2026-01-04T00:00:00Z', { direction: 'inbound' });
  // Department C, inside the window: only a global user sees it.
  const convC = await conversation(c, 'web');
  await task(c, '2026-01-03T10:00:00Z', {
    status: 'done',
    durationMs: 6000,
    tokens: [1000, 0],
    intent: 'secret',
  });
  await message(convC.id, 'web', '2026-01-03T10:00:00Z', { direction: 'inbound' });
  await approval(convC.id, c, '2026-01-03T10:00:00Z', {
    status: 'escalated',
    triggers: ['persona_boundary'],
  });

  const head = await createUser(container, { role: 'dept_head', departmentId: a, extraDepartmentIds: [b] });
  const admin = await createUser(container, { role: 'admin' });
  seeded = { a, b, c, head, admin };
});

const dashboard = (caller: TestUser, query: string) =>
  ctx.app.inject({ url: `/api/v1/analytics/dashboard?${query}`, headers: caller.headers });

const zeroDay = (date: string) => ({
  date,
  messagesIn: 0,
  messagesOut: 0,
  tasks: { total: 0, queued: 0, running: 0, done: 0, failed: 0, timeout: 0 },
  avgDurationMs: null,
  p95DurationMs: null,
  totalTokens: 0,
  costUsd: 0,
  approvals: { total: 0, pending: 0, approved: 0, edited: 0, rejected: 0, escalated: 0 },
  medianDecisionMs: null,
  replies: 0,
  autonomousReplies: 0,
  autonomyRate: null,
  hitlReasons: [],
  intents: [],
});

describe('GET /analytics/dashboard', () => {
  it('computes every figure over the caller’s departments, with a series per UTC day', async () => {
    const res = await dashboard(seeded.head, WINDOW);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      window: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-04T00:00:00.000Z', departmentId: null },
      messages: {
        inbound: 5,
        outbound: 4,
        byChannel: [
          { channel: 'chanA', inbound: 3, outbound: 2 },
          { channel: 'chanB', inbound: 2, outbound: 2 },
        ],
      },
      tasks: {
        total: 5,
        byStatus: { queued: 0, running: 0, done: 3, failed: 1, timeout: 1 },
        avgDurationMs: 3000,
        // percentile_cont over 1000, 2000, 3000, 4000, 5000: 4000 + 0.8 × 1000.
        p95DurationMs: 4800,
      },
      usage: { inputTokens: 350, outputTokens: 70, totalTokens: 420, costUsd: 0.035 },
      approvals: {
        total: 3,
        byStatus: { pending: 1, approved: 1, edited: 0, rejected: 1, escalated: 0 },
        decided: 2,
        medianDecisionMs: 120_000,
      },
      autonomy: { replies: 3, autonomousReplies: 2, rate: 0.666667 },
      hitlReasons: [
        { reason: 'not_autonomous', count: 2 },
        { reason: 'first_interaction', count: 1 },
        { reason: 'low_confidence', count: 1 },
      ],
      topIntents: [
        { intent: 'vacation', count: 2 },
        { intent: 'payroll', count: 1 },
      ],
      series: [
        {
          date: '2026-01-01',
          messagesIn: 3,
          messagesOut: 2,
          tasks: { total: 3, queued: 0, running: 0, done: 2, failed: 1, timeout: 0 },
          avgDurationMs: 3000,
          p95DurationMs: 4800,
          totalTokens: 360,
          costUsd: 0.03,
          approvals: { total: 1, pending: 0, approved: 1, edited: 0, rejected: 0, escalated: 0 },
          medianDecisionMs: 60_000,
          replies: 2,
          autonomousReplies: 1,
          autonomyRate: 0.5,
          hitlReasons: [
            { reason: 'low_confidence', count: 1 },
            { reason: 'not_autonomous', count: 1 },
          ],
          intents: [{ intent: 'vacation', count: 2 }],
        },
        {
          date: '2026-01-02',
          messagesIn: 2,
          messagesOut: 2,
          tasks: { total: 2, queued: 0, running: 0, done: 1, failed: 0, timeout: 1 },
          avgDurationMs: 3000,
          p95DurationMs: 3900,
          totalTokens: 60,
          costUsd: 0.005,
          approvals: { total: 2, pending: 1, approved: 0, edited: 0, rejected: 1, escalated: 0 },
          medianDecisionMs: 180_000,
          replies: 1,
          autonomousReplies: 1,
          autonomyRate: 1,
          hitlReasons: [
            { reason: 'first_interaction', count: 1 },
            { reason: 'not_autonomous', count: 1 },
          ],
          intents: [{ intent: 'payroll', count: 1 }],
        },
        zeroDay('2026-01-03'),
      ],
    });
  });

  it('narrows to one department of the caller', async () => {
    const res = await dashboard(seeded.head, `${WINDOW}&departmentId=${seeded.b}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.window.departmentId).toBe(seeded.b);
    expect(body.messages).toEqual({
      inbound: 2,
      outbound: 2,
      byChannel: [{ channel: 'chanB', inbound: 2, outbound: 2 }],
    });
    expect(body.tasks).toMatchObject({ total: 2, avgDurationMs: 3000, p95DurationMs: 3900 });
    expect(body.approvals).toMatchObject({ total: 2, decided: 1, medianDecisionMs: 180_000 });
    expect(body.autonomy).toEqual({ replies: 1, autonomousReplies: 1, rate: 1 });
    expect(body.topIntents).toEqual([{ intent: 'payroll', count: 1 }]);
    expect(body.series.map((d: { date: string }) => d.date)).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
    ]);
    expect(body.series[0]).toEqual(zeroDay('2026-01-01'));
  });

  it('shows a global user every department', async () => {
    const res = await dashboard(seeded.admin, WINDOW);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tasks).toMatchObject({ total: 6, avgDurationMs: 3500 });
    expect(body.usage.inputTokens).toBe(1350);
    expect(body.messages.byChannel).toContainEqual({ channel: 'web', inbound: 1, outbound: 0 });
    expect(body.approvals.byStatus.escalated).toBe(1);
    expect(body.hitlReasons).toContainEqual({ reason: 'persona_boundary', count: 1 });
    expect(body.topIntents).toContainEqual({ intent: 'secret', count: 1 });
    expect(body.series[2]).toMatchObject({ date: '2026-01-03', messagesIn: 1, tasks: { total: 1, done: 1 } });
  });

  it('answers the last `days` days up to now by default, and nothing of the caller’s is older', async () => {
    const before = Date.now();
    const res = await dashboard(seeded.head, 'days=2');
    expect(res.statusCode).toBe(200);
    const { window, tasks, series } = res.json();
    const to = Date.parse(window.to);
    expect(to).toBeGreaterThanOrEqual(before);
    expect(to - Date.parse(window.from)).toBe(2 * 86_400_000);
    expect(tasks.total).toBe(0);
    expect(series.length).toBeGreaterThanOrEqual(2);
    expect(series.length).toBeLessThanOrEqual(3);
  });

  it('answers 403 for a department outside the caller’s', async () => {
    const res = await dashboard(seeded.head, `${WINDOW}&departmentId=${seeded.c}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ForbiddenError');
  });

  it.each([
    ['days=0', 'querystring.days'],
    ['days=91', 'querystring.days'],
    ['departmentId=not-a-uuid', 'querystring.departmentId'],
    ['from=yesterday', 'querystring.from'],
    ['from=2026-01-04T00:00:00Z&to=2026-01-01T00:00:00Z', 'querystring.from'],
    ['from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'querystring.from'],
  ])('answers 422 for %s', async (query, field) => {
    const res = await dashboard(seeded.head, query);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    expect(JSON.stringify(res.json().details)).toContain(field.split('.')[1]);
  });
});
