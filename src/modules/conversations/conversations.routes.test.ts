import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { rowsOf } from '../../core/db/client.js';
import { agentTasks, messages } from '../../core/db/schema/index.js';

const ctx = useTestApp();

/** A department with a default namespace, an approver and an employee in it. */
async function scene() {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  await ctx.container.repositories.departments.update(department.id, {
    settings: { defaultNamespaceId: namespace.id },
  });
  const approver = await createUser(ctx.container, { role: 'approver', departmentId: department.id });
  const employee = await createUser(ctx.container, { departmentId: department.id });
  return { department, namespace, approver, employee };
}

const sendWeb = (caller: TestUser, payload: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/conversations/web/messages',
    headers: caller.headers,
    payload,
  });
const get = (url: string, caller: TestUser) =>
  ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: caller.headers });

/** The assistant's reply to a message, as delivery writes it for the web channel. */
async function insertReply(conversationId: string, taskId: string, content: string) {
  const [row] = await ctx.container.db
    .insert(messages)
    .values({ conversationId, channel: 'web', direction: 'outbound', content, status: 'delivered', taskId })
    .returning();
  return row!;
}

/**
 * Waits until the database clock has passed the time `messageId` was written:
 * PGlite's clock moves in whole milliseconds, and messages written within one
 * would tie on their time (the list then orders them by id, by chance).
 */
async function clockPastMessage(messageId: string) {
  const past = sql`SELECT now() > created_at AS past FROM messages WHERE id = ${messageId}::uuid`;
  while (!rowsOf<{ past: boolean }>(await ctx.container.db.execute(past))[0]?.past);
}

/** Every page of a cursor list, following nextCursor to the end. */
async function allPages(url: string, caller: TestUser, limit: number) {
  const pages: Array<{ items: Array<{ id: string }>; nextCursor: string | null }> = [];
  let cursor: string | null = null;
  do {
    const res = await get(`${url}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, caller);
    expect(res.statusCode).toBe(200);
    pages.push(res.json());
    cursor = res.json().nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/conversations', permission: 'canApprove' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/conversations/${randomUUID()}/messages`,
  permission: 'canApprove',
  otherDepartmentUrl: async () => {
    const { employee } = await scene();
    const sent = await sendWeb(employee, { text: 'Hello from elsewhere' });
    return `/api/v1/conversations/${sent.json().conversationId}/messages`;
  },
});
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/conversations/web/messages',
  payload: { text: 'Hello' },
});
securityChecks(() => ctx, { method: 'GET', url: '/api/v1/conversations/web/messages' });

describe('POST /conversations/web/messages', () => {
  it('stores the message in the caller’s web conversation and queues a task (202)', async () => {
    const { employee, department, namespace } = await scene();
    const res = await sendWeb(employee, { text: '  How many vacation days do I have?  ' });
    expect(res.statusCode).toBe(202);
    const { messageId, conversationId, taskId } = res.json();
    const [task] = await ctx.container.db.select().from(agentTasks).where(eq(agentTasks.id, taskId));
    expect(task).toMatchObject({
      messageId,
      conversationId,
      departmentId: department.id,
      namespaceId: namespace.id,
      status: 'queued',
    });
    const [stored] = await ctx.container.db.select().from(messages).where(eq(messages.id, messageId));
    expect(stored).toMatchObject({
      channel: 'web',
      direction: 'inbound',
      content: 'How many vacation days do I have?',
    });

    // The next message goes to the same open conversation.
    const again = await sendWeb(employee, { text: 'And sick days?' });
    expect(again.json().conversationId).toBe(conversationId);
    expect(again.json().messageId).not.toBe(messageId);
  });

  it('processes a repeated clientMessageId once and answers the same message; ids are per user', async () => {
    const { employee, department } = await scene();
    const first = await sendWeb(employee, { text: 'Once only', clientMessageId: 'client-1' });
    const repeat = await sendWeb(employee, { text: 'Once only', clientMessageId: 'client-1' });
    expect(first.statusCode).toBe(202);
    expect(repeat.statusCode).toBe(202);
    expect(repeat.json()).toEqual(first.json());
    const stored = await ctx.container.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, first.json().conversationId));
    expect(stored).toHaveLength(1);

    const colleague = await createUser(ctx.container, { departmentId: department.id });
    const theirs = await sendWeb(colleague, { text: 'Once only', clientMessageId: 'client-1' });
    expect(theirs.statusCode).toBe(202);
    expect(theirs.json().messageId).not.toBe(first.json().messageId);
  });

  it('answers 422 for empty, blank, oversized or missing text and a malformed clientMessageId, storing nothing', async () => {
    const { employee } = await scene();
    for (const payload of [
      {},
      { text: '' },
      { text: '   \n ' },
      { text: 'x'.repeat(4001) },
      { text: 42 },
      { text: 'ok', clientMessageId: 'has spaces' },
      { text: 'ok', clientMessageId: 'x'.repeat(101) },
    ]) {
      const res = await sendWeb(employee, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
    expect((await get('/conversations/web/messages', employee)).json().items).toEqual([]);
  });
});

describe('GET /conversations/web/messages', () => {
  it('lists the caller’s own web messages, inbound and outbound, newest first, with cursor pages', async () => {
    const { employee } = await scene();
    const first = (await sendWeb(employee, { text: 'First', clientMessageId: 'm-1' })).json();
    await clockPastMessage(first.messageId);
    const reply = await insertReply(first.conversationId, first.taskId, 'The answer');
    await clockPastMessage(reply.id);
    const second = (await sendWeb(employee, { text: 'Second' })).json();
    const stranger = await createUser(ctx.container);
    await sendWeb(stranger, { text: 'Not yours' });

    // No canApprove needed: an employee reads their own chat.
    const res = await get('/conversations/web/messages', employee);
    expect(res.statusCode).toBe(200);
    const { items, nextCursor } = res.json();
    expect(nextCursor).toBeNull();
    expect(items.map((m: { id: string }) => m.id)).toEqual([second.messageId, reply.id, first.messageId]);
    expect(items[1]).toMatchObject({ direction: 'outbound', content: 'The answer', status: 'delivered' });
    expect(items[2]).toMatchObject({
      direction: 'inbound',
      content: 'First',
      status: null,
      clientMessageId: 'm-1',
      taskId: first.taskId,
    });

    const pages = await allPages('/conversations/web/messages', employee, 2);
    expect(pages.map((p) => p.items.length)).toEqual([2, 1]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    expect(pages.flatMap((p) => p.items.map((m) => m.id))).toEqual(items.map((m: { id: string }) => m.id));
  });

  it('answers 422 for a cursor that is not one of the caller’s web messages', async () => {
    const { employee } = await scene();
    const other = await createUser(ctx.container);
    const theirs = (await sendWeb(other, { text: 'Mine' })).json();
    for (const cursor of [theirs.messageId, randomUUID(), 'nope']) {
      const res = await get(`/conversations/web/messages?cursor=${cursor}`, employee);
      expect(res.statusCode, cursor).toBe(422);
    }
  });
});

describe('GET /conversations', () => {
  it("lists the department's conversations for an approver, with channel and status filters", async () => {
    const s = await scene();
    const web = (await sendWeb(s.employee, { text: 'Hello' })).json();
    const phone = `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`;
    const phoneUser = await createUser(ctx.container, { departmentId: s.department.id, phone });
    const chanA = await ctx.container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: `+${phone}`,
      text: 'Hi from the phone',
      channelMessageId: `wamid-${randomUUID()}`,
    });
    const elsewhere = await scene();
    const foreign = (await sendWeb(elsewhere.employee, { text: 'Elsewhere' })).json();

    const res = await get(`/conversations?limit=100`, s.approver);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((c: { id: string }) => c.id).sort()).toEqual(
      [web.conversationId, chanA.conversationId].sort(),
    );
    const chanAItem = body.items.find((c: { id: string }) => c.id === chanA.conversationId);
    expect(chanAItem).toMatchObject({
      channel: 'chanA',
      userId: phoneUser.user.id,
      userName: phoneUser.user.name,
      departmentId: s.department.id,
      namespaceId: s.namespace.id,
      status: 'open',
    });

    const onlyWeb = await get(`/conversations?channel=web`, s.approver);
    expect(onlyWeb.json().items.map((c: { id: string }) => c.id)).toEqual([web.conversationId]);
    const closed = await get(`/conversations?status=closed`, s.approver);
    expect(closed.json()).toMatchObject({ items: [], total: 0 });

    const admin = await createUser(ctx.container, { role: 'admin' });
    const other = await get(`/conversations?departmentId=${elsewhere.department.id}`, admin);
    expect(other.json().items.map((c: { id: string }) => c.id)).toEqual([foreign.conversationId]);
  });

  it('answers 403 for another department filter and 422 for an unknown channel or status', async () => {
    const s = await scene();
    const other = await createDepartment(ctx.container);
    expect((await get(`/conversations?departmentId=${other.id}`, s.approver)).statusCode).toBe(403);
    for (const query of ['channel=sms', 'status=archived', 'limit=101']) {
      const res = await get(`/conversations?${query}`, s.approver);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
  });
});

describe('GET /conversations/:id/messages', () => {
  it('answers the messages newest first with cursor pages until nextCursor is null', async () => {
    const s = await scene();
    const sent = [];
    for (const text of ['one', 'two', 'three', 'four', 'five']) {
      sent.push((await sendWeb(s.employee, { text })).json());
    }
    const reply = await insertReply(sent[0].conversationId, sent[0].taskId, 'reply to one');
    const url = `/conversations/${sent[0].conversationId}/messages`;

    const pages = await allPages(url, s.approver, 2);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 2]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    const ids = pages.flatMap((p) => p.items.map((m) => m.id));
    expect(ids).toEqual([reply.id, ...sent.map((m) => m.messageId).reverse()]);
    const [newest] = pages[0]!.items as Array<Record<string, unknown>>;
    expect(newest).toMatchObject({
      id: reply.id,
      channel: 'web',
      direction: 'outbound',
      status: 'delivered',
      taskId: sent[0].taskId,
      approvalId: null,
    });

    // A page that ends exactly at the last message says so.
    const whole = await get(`${url}?limit=6`, s.approver);
    expect(whole.json().items).toHaveLength(6);
    expect(whole.json().nextCursor).toBeNull();
  });

  it('answers 422 for a cursor of another conversation and 404 for another department (a global admin sees it)', async () => {
    const s = await scene();
    const mine = (await sendWeb(s.employee, { text: 'mine' })).json();
    const colleague = await createUser(ctx.container, { departmentId: s.department.id });
    const theirs = (await sendWeb(colleague, { text: 'theirs' })).json();
    const wrongCursor = await get(
      `/conversations/${mine.conversationId}/messages?cursor=${theirs.messageId}`,
      s.approver,
    );
    expect(wrongCursor.statusCode).toBe(422);
    expect(wrongCursor.json().details).toEqual([expect.objectContaining({ field: 'querystring.cursor' })]);

    const elsewhere = await scene();
    const foreign = (await sendWeb(elsewhere.employee, { text: 'foreign' })).json();
    const hidden = await get(`/conversations/${foreign.conversationId}/messages`, s.approver);
    expect(hidden.statusCode).toBe(404);
    expect((await get(`/conversations/${randomUUID()}/messages`, s.approver)).statusCode).toBe(404);
    const admin = await createUser(ctx.container, { role: 'admin' });
    const seen = await get(`/conversations/${foreign.conversationId}/messages`, admin);
    expect(seen.json().items.map((m: { id: string }) => m.id)).toEqual([foreign.messageId]);
  });
});
