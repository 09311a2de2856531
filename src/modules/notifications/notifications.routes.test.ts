import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { notifications } from '../../core/db/schema/index.js';
import { type NotificationText, notificationTexts } from './notification-texts.js';
import type { NotificationInput } from './notifications.service.js';

const ctx = useTestApp();

/** A test notice with one title whatever the recipient's language. */
const sameInEveryLanguage =
  (title: string): NotificationText =>
  () => ({ title, body: null });

/** Writes notifications for `user` through the producers' path (no publish needed here). */
async function notify(user: TestUser, input: Partial<NotificationInput> = {}) {
  const [row] = await ctx.container.notifications.service.notify(
    [user.user.id],
    { type: 'system', text: sameInEveryLanguage(`Notice ${randomUUID().slice(0, 8)}`), ...input },
    ctx.container.db,
  );
  return row!;
}

async function rowOf(id: string) {
  const [row] = await ctx.container.db.select().from(notifications).where(eq(notifications.id, id));
  return row ?? null;
}

const call = (caller: TestUser, method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers });

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/notifications' });
securityChecks(() => ctx, { method: 'PATCH', url: `/api/v1/notifications/${randomUUID()}/read` });
securityChecks(() => ctx, { method: 'POST', url: '/api/v1/notifications/read-all' });
securityChecks(() => ctx, { method: 'DELETE', url: `/api/v1/notifications/${randomUUID()}` });

describe('GET /notifications', () => {
  it('lists only your own rows, newest first, with pagination and the unread count', async () => {
    const me = await createUser(ctx.container);
    const someone = await createUser(ctx.container);
    const written = await notify(me, {
      type: 'approval_pending',
      text: notificationTexts.replyAwaitingApproval('A reply waits'),
      entityType: 'approval',
      entityId: randomUUID(),
    });
    // A minute older: two rows written in the same millisecond (PGlite's clock) would tie on createdAt.
    const [first] = await ctx.container.db
      .update(notifications)
      .set({ createdAt: new Date(written.createdAt.getTime() - 60_000) })
      .where(eq(notifications.id, written.id))
      .returning();
    if (!first) throw new Error('the first notification is gone');
    const second = await notify(me);
    await notify(someone);

    const res = await call(me, 'GET', '/notifications');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ total: 2, limit: 20, offset: 0 });
    expect(body.unreadCount).toBe(2);
    expect(body.items.map((n: { id: string }) => n.id)).toEqual([second.id, first.id]);
    expect(body.items[1]).toEqual({
      id: first.id,
      userId: me.user.id,
      type: 'approval_pending',
      title: first.title,
      body: 'A reply waits',
      entityType: 'approval',
      entityId: first.entityId,
      readAt: null,
      createdAt: first.createdAt.toISOString(),
    });
  });

  it('filters with unreadOnly and pages with limit and offset; unreadCount ignores both', async () => {
    const me = await createUser(ctx.container);
    const rows = [];
    for (let i = 0; i < 3; i++) rows.push(await notify(me));
    expect((await call(me, 'PATCH', `/notifications/${rows[0]!.id}/read`)).statusCode).toBe(200);

    const unread = (await call(me, 'GET', '/notifications?unreadOnly=true')).json();
    expect(unread.items.map((n: { id: string }) => n.id).sort()).toEqual([rows[1]!.id, rows[2]!.id].sort());
    expect(unread.pagination.total).toBe(2);
    expect(unread.unreadCount).toBe(2);

    const all = (await call(me, 'GET', '/notifications?unreadOnly=false')).json();
    expect(all.pagination.total).toBe(3);

    const page = (await call(me, 'GET', '/notifications?limit=1&offset=1')).json();
    expect(page.items).toHaveLength(1);
    expect(page.pagination).toEqual({ total: 3, limit: 1, offset: 1 });
    expect(page.unreadCount).toBe(2);
  });

  it('answers 422 for a bad limit, offset or unreadOnly, and for unknown parameters', async () => {
    const me = await createUser(ctx.container);
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'unreadOnly=maybe', 'limit=ten']) {
      const res = await call(me, 'GET', `/notifications?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
  });
});

describe('PATCH /notifications/:id/read', () => {
  it('sets readAt, and a second call returns the row unchanged', async () => {
    const me = await createUser(ctx.container);
    const row = await notify(me);
    const first = await call(me, 'PATCH', `/notifications/${row.id}/read`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: row.id, readAt: expect.any(String) });
    const stored = await rowOf(row.id);
    expect(stored?.readAt?.toISOString()).toBe(first.json().readAt);

    const again = await call(me, 'PATCH', `/notifications/${row.id}/read`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await call(me, 'GET', '/notifications')).json().unreadCount).toBe(0);
  });

  it("answers 404 for another user's row and leaves it unread", async () => {
    const me = await createUser(ctx.container);
    const owner = await createUser(ctx.container, { role: 'admin' });
    const theirs = await notify(owner);
    const res = await call(me, 'PATCH', `/notifications/${theirs.id}/read`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      error: 'NotFoundError',
      message: `Notification ${theirs.id} not found`,
    });
    expect((await rowOf(theirs.id))?.readAt).toBeNull();
    // Even a global admin reaches only their own inbox.
    const admin = await createUser(ctx.container, { role: 'admin' });
    expect((await call(admin, 'PATCH', `/notifications/${theirs.id}/read`)).statusCode).toBe(404);
  });

  it('answers 404 for an unknown id and 422 for an id that is not a UUID', async () => {
    const me = await createUser(ctx.container);
    expect((await call(me, 'PATCH', `/notifications/${randomUUID()}/read`)).statusCode).toBe(404);
    const bad = await call(me, 'PATCH', '/notifications/not-a-uuid/read');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toBe('ValidationError');
  });
});

describe('POST /notifications/read-all', () => {
  it("marks all of your unread rows read, keeps earlier readAt, and leaves other users' rows alone", async () => {
    const me = await createUser(ctx.container);
    const someone = await createUser(ctx.container);
    const early = await notify(me);
    const readBefore = (await call(me, 'PATCH', `/notifications/${early.id}/read`)).json().readAt;
    await notify(me);
    await notify(me);
    const theirs = await notify(someone);

    const res = await call(me, 'POST', '/notifications/read-all');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    expect((await rowOf(early.id))?.readAt?.toISOString()).toBe(readBefore);
    const inbox = (await call(me, 'GET', '/notifications')).json();
    expect(inbox.unreadCount).toBe(0);
    expect(inbox.items.every((n: { readAt: string | null }) => n.readAt !== null)).toBe(true);
    expect((await rowOf(theirs.id))?.readAt).toBeNull();

    expect((await call(me, 'POST', '/notifications/read-all')).json()).toEqual({ updated: 0 });
  });
});

describe('DELETE /notifications/:id', () => {
  it('deletes your row: it leaves the inbox and the unread count', async () => {
    const me = await createUser(ctx.container);
    const row = await notify(me);
    await notify(me);
    const res = await call(me, 'DELETE', `/notifications/${row.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await rowOf(row.id)).toBeNull();
    const inbox = (await call(me, 'GET', '/notifications')).json();
    expect(inbox.pagination.total).toBe(1);
    expect(inbox.unreadCount).toBe(1);
    expect((await call(me, 'DELETE', `/notifications/${row.id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another user's row and keeps it", async () => {
    const me = await createUser(ctx.container);
    const owner = await createUser(ctx.container);
    const theirs = await notify(owner);
    const res = await call(me, 'DELETE', `/notifications/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('NotFoundError');
    expect(await rowOf(theirs.id)).not.toBeNull();
  });

  it('answers 422 for an id that is not a UUID', async () => {
    const me = await createUser(ctx.container);
    expect((await call(me, 'DELETE', '/notifications/42')).statusCode).toBe(422);
  });
});
