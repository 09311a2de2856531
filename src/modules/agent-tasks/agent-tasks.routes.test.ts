import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { agentTasks, agentToolCalls, conversations, messages } from '../../core/db/schema/index.js';

const ctx = useTestApp();

/** A task row as the pipeline would leave it. */
async function insertTask(values: {
  departmentId: string;
  namespaceId?: string | null;
  status?: string;
  adapterType?: string;
  costUsd?: number;
  durationMs?: number | null;
  createdAt?: Date;
  conversationId?: string;
  messageId?: string;
}) {
  const id = randomUUID();
  const [row] = await ctx.container.db
    .insert(agentTasks)
    .values({
      id,
      jobId: `agent-task-${id}`,
      departmentId: values.departmentId,
      namespaceId: values.namespaceId ?? null,
      status: values.status ?? 'done',
      adapterType: values.adapterType ?? 'api',
      costUsd: values.costUsd ?? 0,
      durationMs: values.durationMs === undefined ? 100 : values.durationMs,
      ...(values.createdAt ? { createdAt: values.createdAt } : {}),
      conversationId: values.conversationId ?? null,
      messageId: values.messageId ?? null,
    })
    .returning();
  return row!;
}

/** A task answering `content`, sent by `user` on `channel`, as the inbound pipeline leaves it. */
async function insertAskedTask(user: TestUser, departmentId: string, content: string, channel = 'web') {
  const [conversation] = await ctx.container.db
    .insert(conversations)
    .values({ channel, userId: user.user.id, departmentId })
    .returning();
  const [message] = await ctx.container.db
    .insert(messages)
    .values({ conversationId: conversation!.id, channel, direction: 'inbound', content })
    .returning();
  return insertTask({ departmentId, conversationId: conversation!.id, messageId: message!.id });
}

/** A department with a namespace, a dept_head in it, and the department of someone else. */
async function scene() {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  const head = await createUser(ctx.container, { role: 'dept_head', departmentId: department.id });
  const employee = await createUser(ctx.container, { departmentId: department.id });
  const other = await createDepartment(ctx.container);
  const otherNamespace = await createNamespace(ctx.container, { departmentId: other.id });
  return { department, namespace, head, employee, other, otherNamespace };
}

const get = (url: string, caller: TestUser) =>
  ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: caller.headers });

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/agent-tasks' });
securityChecks(() => ctx, { method: 'GET', url: '/api/v1/agent-tasks/stats' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/agent-tasks/${randomUUID()}`,
  otherDepartmentUrl: async () => {
    const task = await insertTask({ departmentId: (await createDepartment(ctx.container)).id });
    return `/api/v1/agent-tasks/${task.id}`;
  },
});

describe('GET /agent-tasks', () => {
  it("lists the tasks of the caller's departments, newest first, and a global admin sees every department", async () => {
    const s = await scene();
    const older = await insertTask({
      departmentId: s.department.id,
      namespaceId: s.namespace.id,
      createdAt: new Date(Date.now() - 60_000),
    });
    const newer = await insertTask({ departmentId: s.department.id, namespaceId: s.namespace.id });
    const foreign = await insertTask({ departmentId: s.other.id, namespaceId: s.otherNamespace.id });

    const res = await get(`/agent-tasks?namespaceId=${s.namespace.id}`, s.employee);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(body.items.map((t: { id: string }) => t.id)).toEqual([newer.id, older.id]);
    expect(body.items[0]).toMatchObject({
      jobId: `agent-task-${newer.id}`,
      namespaceId: s.namespace.id,
      departmentId: s.department.id,
      adapterType: 'api',
      status: 'done',
      durationMs: 100,
    });
    expect(body.items[0]).not.toHaveProperty('toolCalls');
    // A task without a conversation has no message and no sender.
    expect(body.items[0]).toMatchObject({ messageText: null, channel: null, sender: null });

    // Another department's namespace filter finds nothing for this user.
    const elsewhere = await get(`/agent-tasks?namespaceId=${s.otherNamespace.id}`, s.employee);
    expect(elsewhere.json()).toMatchObject({ items: [], total: 0 });

    const admin = await createUser(ctx.container, { role: 'admin' });
    const all = await get(`/agent-tasks?limit=100&departmentId=${s.other.id}`, admin);
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((t: { id: string }) => t.id)).toEqual([foreign.id]);
  });

  it('filters by status, adapter and creation window, and pages with limit and offset', async () => {
    const s = await scene();
    const base = { departmentId: s.department.id, namespaceId: s.namespace.id };
    const hourAgo = new Date(Date.now() - 3_600_000);
    const old = await insertTask({ ...base, status: 'failed', createdAt: hourAgo });
    const running = await insertTask({
      ...base,
      status: 'running',
      adapterType: 'codex_cli',
      durationMs: null,
    });
    const done = await insertTask({ ...base, status: 'done' });

    const byStatus = await get(`/agent-tasks?departmentId=${s.department.id}&status=running`, s.head);
    expect(byStatus.json().items.map((t: { id: string }) => t.id)).toEqual([running.id]);
    expect(byStatus.json().items[0].durationMs).toBeNull();

    const byAdapter = await get(`/agent-tasks?departmentId=${s.department.id}&adapterType=codex_cli`, s.head);
    expect(byAdapter.json().total).toBe(1);

    const from = new Date(hourAgo.getTime() + 1000).toISOString();
    const recent = await get(`/agent-tasks?departmentId=${s.department.id}&from=${from}`, s.head);
    expect(
      recent
        .json()
        .items.map((t: { id: string }) => t.id)
        .sort(),
    ).toEqual([running.id, done.id].sort());
    const before = await get(`/agent-tasks?departmentId=${s.department.id}&to=${from}`, s.head);
    expect(before.json().items.map((t: { id: string }) => t.id)).toEqual([old.id]);

    const page = await get(`/agent-tasks?departmentId=${s.department.id}&limit=1&offset=2`, s.head);
    expect(page.json()).toMatchObject({ total: 3, limit: 1, offset: 2 });
    expect(page.json().items.map((t: { id: string }) => t.id)).toEqual([old.id]);
  });

  it('answers 403 for a departmentId filter outside the caller’s departments', async () => {
    const s = await scene();
    const res = await get(`/agent-tasks?departmentId=${s.other.id}`, s.employee);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ForbiddenError');
  });

  it('answers 422 for an unknown status, a bad date, a limit over 100, and from after to', async () => {
    const { employee } = await scene();
    for (const query of [
      'status=finished',
      'from=yesterday',
      'limit=101',
      'offset=-1',
      'namespaceId=not-a-uuid',
      'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
    ]) {
      const res = await get(`/agent-tasks?${query}`, employee);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error, query).toBe('ValidationError');
    }
  });
});

describe('the inbound message and its sender', () => {
  it('answers the message text, cut to 500 characters, the channel and the sender in the list and the detail', async () => {
    const s = await scene();
    const short = await insertAskedTask(s.employee, s.department.id, 'How many vacation days do I have?');
    const long = await insertAskedTask(s.employee, s.department.id, 'x'.repeat(800), 'chanB');

    const list = await get(`/agent-tasks?departmentId=${s.department.id}&limit=100`, s.head);
    expect(list.statusCode).toBe(200);
    const items = list.json().items as Array<{ id: string; messageText: string; channel: string }>;
    expect(items.find((t) => t.id === short.id)).toMatchObject({
      messageText: 'How many vacation days do I have?',
      channel: 'web',
      sender: { id: s.employee.user.id, name: s.employee.user.name },
    });
    const cut = items.find((t) => t.id === long.id)!;
    expect(cut.channel).toBe('chanB');
    expect(cut.messageText).toHaveLength(500);
    expect(cut.messageText.endsWith('…')).toBe(true);

    const detail = await get(`/agent-tasks/${short.id}`, s.employee);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      messageId: short.messageId,
      messageText: 'How many vacation days do I have?',
      channel: 'web',
      sender: { id: s.employee.user.id, name: s.employee.user.name },
    });
  });

  it("keeps a colleague's message and name from an employee, who still sees the task's figures", async () => {
    const s = await scene();
    const colleague = await createUser(ctx.container, { departmentId: s.department.id });
    const theirs = await insertAskedTask(colleague, s.department.id, 'Is my salary below the median?');
    const list = await get(`/agent-tasks?departmentId=${s.department.id}&limit=100`, s.employee);
    expect(list.json().items.find((t: { id: string }) => t.id === theirs.id)).toMatchObject({
      id: theirs.id,
      messageText: null,
      sender: null,
    });
    await ctx.container.db.insert(agentToolCalls).values({
      taskId: theirs.id,
      stepName: 'inject_profile',
      status: 'done',
      inputData: { question: 'Is my salary below the median?' },
      outputData: { profile: 'salary band B' },
      durationMs: 5,
    });
    const detail = await get(`/agent-tasks/${theirs.id}`, s.employee);
    expect(detail.json()).toMatchObject({
      messageText: null,
      sender: null,
      output: null,
      toolCalls: [{ stepName: 'inject_profile', status: 'done', inputData: null, outputData: null }],
    });
    expect(detail.body).not.toContain('salary');
    expect((await get(`/agent-tasks/${theirs.id}`, s.head)).json().messageText).toBe(
      'Is my salary below the median?',
    );
  });
});

describe('GET /agent-tasks/:id', () => {
  it('answers the task with its output and tool calls in step order', async () => {
    const s = await scene();
    const task = await insertTask({ departmentId: s.department.id, namespaceId: s.namespace.id });
    // Written out of order: the answer still follows the pipeline's step order.
    for (const stepName of ['generate', 'inject_profile', 'confidence_check', 'rag_search']) {
      await ctx.container.db.insert(agentToolCalls).values({
        taskId: task.id,
        stepName,
        status: 'done',
        inputData: { step: stepName },
        outputData: { ok: true },
        durationMs: 5,
      });
    }
    const res = await get(`/agent-tasks/${task.id}`, s.head);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: task.id, status: 'done', output: null });
    expect(body.toolCalls.map((c: { stepName: string }) => c.stepName)).toEqual([
      'inject_profile',
      'rag_search',
      'generate',
      'confidence_check',
    ]);
    expect(body.toolCalls[0]).toMatchObject({
      status: 'done',
      inputData: { step: 'inject_profile' },
      outputData: { ok: true },
      durationMs: 5,
      errorMessage: null,
    });
  });

  it('answers 404 for an unknown id, another department’s task (a global admin sees it), and 422 for a bad id', async () => {
    const s = await scene();
    const foreign = await insertTask({ departmentId: s.other.id });
    expect((await get(`/agent-tasks/${randomUUID()}`, s.head)).statusCode).toBe(404);
    const hidden = await get(`/agent-tasks/${foreign.id}`, s.head);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error).toBe('NotFoundError');
    const admin = await createUser(ctx.container, { role: 'admin' });
    expect((await get(`/agent-tasks/${foreign.id}`, admin)).json().id).toBe(foreign.id);
    expect((await get('/agent-tasks/not-a-uuid', s.head)).statusCode).toBe(422);
  });
});

describe('GET /agent-tasks/stats', () => {
  it('groups by adapter and namespace with success rate, averages over finished tasks and counts per status', async () => {
    const s = await scene();
    const base = { departmentId: s.department.id, namespaceId: s.namespace.id };
    await insertTask({ ...base, status: 'done', costUsd: 0.01, durationMs: 100 });
    await insertTask({ ...base, status: 'done', costUsd: 0.03, durationMs: 300 });
    await insertTask({ ...base, status: 'failed', costUsd: 0, durationMs: 200 });
    await insertTask({ ...base, status: 'timeout', costUsd: 0, durationMs: 400 });
    await insertTask({ ...base, status: 'queued', durationMs: null });
    await insertTask({ ...base, adapterType: 'codex_cli', status: 'running', durationMs: null });
    await insertTask({ departmentId: s.other.id, namespaceId: s.otherNamespace.id });

    const res = await get(`/agent-tasks/stats?departmentId=${s.department.id}`, s.employee);
    expect(res.statusCode).toBe(200);
    const { stats } = res.json();
    expect(stats).toEqual([
      {
        adapterType: 'api',
        namespaceId: s.namespace.id,
        total: 5,
        successRate: 0.5,
        avgDurationMs: 250,
        avgCostUsd: 0.01,
        byStatus: { queued: 1, running: 0, done: 2, failed: 1, timeout: 1 },
      },
      {
        adapterType: 'codex_cli',
        namespaceId: s.namespace.id,
        total: 1,
        successRate: 0,
        avgDurationMs: null,
        avgCostUsd: null,
        byStatus: { queued: 0, running: 1, done: 0, failed: 0, timeout: 0 },
      },
    ]);

    // Without a departmentId the caller's scope applies: the other department is not counted.
    const scoped = await get(`/agent-tasks/stats?namespaceId=${s.otherNamespace.id}`, s.employee);
    expect(scoped.json()).toEqual({ stats: [] });
    const filtered = await get(
      `/agent-tasks/stats?namespaceId=${s.namespace.id}&adapterType=codex_cli`,
      s.employee,
    );
    expect(filtered.json().stats.map((g: { total: number }) => g.total)).toEqual([1]);
  });

  it('answers 403 for another department and 422 for bad filters', async () => {
    const s = await scene();
    expect((await get(`/agent-tasks/stats?departmentId=${s.other.id}`, s.employee)).statusCode).toBe(403);
    for (const query of [
      'from=soon',
      'namespaceId=abc',
      'to=2026-01-01T00:00:00Z&from=2026-02-01T00:00:00Z',
    ]) {
      expect((await get(`/agent-tasks/stats?${query}`, s.employee)).statusCode, query).toBe(422);
    }
  });
});
