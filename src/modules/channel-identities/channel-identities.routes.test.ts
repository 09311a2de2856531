import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { createDepartment, createRole, createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import {
  auditLogs,
  channelIdentities,
  channelLinkCodes,
  conversations,
  roles,
  users,
} from '../../core/db/schema/index.js';
import { hashLinkCode } from './link-codes.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

type Method = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
const api = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

/** A user manager of one department: a role that is not global, with canManageUsers and what employees hold. */
async function manager(departmentId: string) {
  const [employeeRole] = await ctx.container.db.select().from(roles).where(eq(roles.slug, 'employee'));
  const role = await createRole(ctx.container, {
    permissions: [...(employeeRole?.permissions ?? []), 'canManageUsers', 'canViewAllUsers'],
  });
  return createUser(ctx.container, { role: role.slug, departmentId });
}
let nextTelegramId = 700_000_000 + Math.floor(Math.random() * 1_000_000);
const telegramId = () => {
  nextTelegramId += 1;
  return String(nextTelegramId);
};

/** A placeholder user as an unlinked channel B sender creates it, with an open conversation. */
async function placeholderWithConversation(channelUserId: string) {
  const { db, pipeline } = ctx.container;
  const sender = await pipeline.senders.resolve({ channel: 'chanB', channelUserId, senderName: 'Olena' });
  const conversation = await db.transaction((tx) =>
    pipeline.repositories.conversations.openOrFind('chanB', sender.user, channelUserId, tx),
  );
  return { placeholder: sender.user, conversation };
}

securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/users/${randomUUID()}/channel-identities`,
  permission: 'canManageUsers',
});
securityChecks(() => ctx, {
  method: 'PUT',
  url: `/api/v1/users/${randomUUID()}/channel-identities/chanB`,
  payload: { channelUserId: '12345' },
  permission: 'canManageUsers',
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/users/${randomUUID()}/channel-identities/chanB`,
  permission: 'canManageUsers',
});
securityChecks(() => ctx, { method: 'GET', url: '/api/v1/me/channel-identities' });
securityChecks(() => ctx, { method: 'DELETE', url: '/api/v1/me/channel-identities/chanB' });
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/me/channel-link-codes',
  payload: { channel: 'chanB' },
});
securityChecks(() => ctx, { method: 'PATCH', url: '/api/v1/me', payload: { language: 'uk' } });
securityChecks(() => ctx, {
  method: 'PUT',
  url: '/api/v1/me/approval-channels',
  payload: { channels: [] },
  permission: 'canApprove',
});

describe('PUT /users/:id/channel-identities/:channel', () => {
  it('links an identity, lists it, replaces it, and audits the change', async () => {
    const department = await createDepartment(ctx.container);
    const admin = await manager(department.id);
    const employee = await createUser(ctx.container, { departmentId: department.id });
    const first = telegramId();
    const put = await api('PUT', `/users/${employee.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: first,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ channel: 'chanB', channelUserId: first });

    const second = telegramId();
    await api('PUT', `/users/${employee.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: second,
    });
    const chanA = await api('PUT', `/users/${employee.user.id}/channel-identities/chanA`, admin.headers, {
      channelUserId: '+380501112233',
    });
    expect(chanA.json()).toMatchObject({ channel: 'chanA', channelUserId: '380501112233' });
    const listed = await api('GET', `/users/${employee.user.id}/channel-identities`, admin.headers);
    expect(listed.statusCode).toBe(200);
    expect(
      listed
        .json()
        .items.map((i: { channel: string; channelUserId: string }) => [i.channel, i.channelUserId]),
    ).toEqual([
      ['chanA', '380501112233'],
      ['chanB', second],
    ]);

    const audited = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, employee.user.id), eq(auditLogs.action, 'set-channel-identity')));
    expect(audited).toHaveLength(3);
  });

  it('answers 422 for an id the channel does not use and for an unknown channel', async () => {
    const department = await createDepartment(ctx.container);
    const admin = await manager(department.id);
    const employee = await createUser(ctx.container, { departmentId: department.id });
    const url = `/users/${employee.user.id}/channel-identities`;
    for (const [channel, channelUserId] of [
      ['chanA', '1234567'],
      ['chanA', '38050abc12345'],
      ['chanB', '-5'],
      ['chanB', 'olena'],
      ['chanC', '12345'],
    ] as const) {
      const res = await api('PUT', `${url}/${channel}`, admin.headers, { channelUserId });
      expect(res.statusCode, `${channel} ${channelUserId}`).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
    expect((await api('GET', url, admin.headers)).json().items).toEqual([]);
  });

  it('answers 404 for a user that does not exist or is outside the caller’s departments, on every route', async () => {
    const department = await createDepartment(ctx.container);
    const caller = await manager(department.id);
    const outside = await createUser(ctx.container);
    for (const userId of [randomUUID(), outside.user.id]) {
      const url = `/users/${userId}/channel-identities`;
      const put = await api('PUT', `${url}/chanB`, caller.headers, { channelUserId: telegramId() });
      expect(put.statusCode).toBe(404);
      expect(put.json().error).toBe('NotFoundError');
      expect((await api('GET', url, caller.headers)).statusCode).toBe(404);
      expect((await api('DELETE', `${url}/chanB`, caller.headers)).statusCode).toBe(404);
    }
  });

  it('answers 403 for a user whose role holds more access than the caller', async () => {
    const department = await createDepartment(ctx.container);
    const caller = await manager(department.id);
    const admin = await createUser(ctx.container, { role: 'admin', departmentId: department.id });
    const res = await api('PUT', `/users/${admin.user.id}/channel-identities/chanB`, caller.headers, {
      channelUserId: telegramId(),
    });
    expect(res.statusCode).toBe(403);
  });

  it('answers 409 when another real user holds the identity, and leaves it with them', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const holder = await createUser(ctx.container);
    const other = await createUser(ctx.container);
    const id = telegramId();
    await api('PUT', `/users/${holder.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: id,
    });
    const res = await api('PUT', `/users/${other.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: id,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ConflictError');
    const [row] = await ctx.container.db
      .select()
      .from(channelIdentities)
      .where(and(eq(channelIdentities.channel, 'chanB'), eq(channelIdentities.channelUserId, id)));
    expect(row?.userId).toBe(holder.user.id);
  });

  it('merges a placeholder that held the identity into the user, keeping its conversation, and audits the merge', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const employee = await createUser(ctx.container);
    const id = telegramId();
    const { placeholder, conversation } = await placeholderWithConversation(id);
    expect(placeholder.isPlaceholder).toBe(true);

    const res = await api('PUT', `/users/${employee.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: id,
    });
    expect(res.statusCode).toBe(200);
    const { db } = ctx.container;
    expect(await db.select().from(users).where(eq(users.id, placeholder.id))).toEqual([]);
    const [kept] = await db.select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(kept?.userId).toBe(employee.user.id);
    // It was opened in the default department, not the employee's: the next message opens a new one.
    expect(kept?.status).toBe('closed');
    const [merge] = await db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityId, employee.user.id), eq(auditLogs.action, 'merge-placeholder')));
    expect(merge?.changes).toMatchObject({ placeholderId: placeholder.id, conversationsMoved: 1 });
  });
});

describe('DELETE /users/:id/channel-identities/:channel', () => {
  it('removes the identity (204), then answers 404 for the channel without one', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const employee = await createUser(ctx.container);
    const url = `/users/${employee.user.id}/channel-identities/chanB`;
    await api('PUT', url, admin.headers, { channelUserId: telegramId() });
    expect((await api('DELETE', url, admin.headers)).statusCode).toBe(204);
    expect((await api('DELETE', url, admin.headers)).statusCode).toBe(404);
    expect(
      (await api('DELETE', `/users/${employee.user.id}/channel-identities/chanX`, admin.headers)).statusCode,
    ).toBe(422);
  });
});

describe('/me/channel-identities and /me/channel-link-codes', () => {
  it('shows and removes the caller’s own identities', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const employee = await createUser(ctx.container);
    const id = telegramId();
    await api('PUT', `/users/${employee.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: id,
    });
    const mine = await api('GET', '/me/channel-identities', employee.headers);
    expect(mine.json().items).toEqual([expect.objectContaining({ channel: 'chanB', channelUserId: id })]);
    expect((await api('DELETE', '/me/channel-identities/chanB', employee.headers)).statusCode).toBe(204);
    expect((await api('GET', '/me/channel-identities', employee.headers)).json().items).toEqual([]);
    expect((await api('DELETE', '/me/channel-identities/chanB', employee.headers)).statusCode).toBe(404);
  });

  it('creates a one-time code stored only as its hash, a new one replacing the last; no deep link without a bot', async () => {
    const employee = await createUser(ctx.container);
    const first = await api('POST', '/me/channel-link-codes', employee.headers, { channel: 'chanB' });
    expect(first.statusCode).toBe(201);
    const body = first.json();
    expect(body.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(body.deepLink).toBeUndefined();
    expect(new Date(body.expiresAt).toISOString()).toBe(body.expiresAt);
    const second = (
      await api('POST', '/me/channel-link-codes', employee.headers, { channel: 'chanB' })
    ).json();
    const rows = await ctx.container.db
      .select()
      .from(channelLinkCodes)
      .where(eq(channelLinkCodes.userId, employee.user.id));
    expect(rows.map((r) => r.codeHash)).toEqual([hashLinkCode(second.code)]);
    expect(JSON.stringify(rows)).not.toContain(body.code);
    expect(
      (await api('POST', '/me/channel-link-codes', employee.headers, { channel: 'fax' })).statusCode,
    ).toBe(422);
  });
});

describe('language', () => {
  it('is set by the user with PATCH /me and shown in GET /me; null clears it; anything else is 422', async () => {
    const employee = await createUser(ctx.container);
    expect((await api('GET', '/me', employee.headers)).json().user.language).toBeNull();
    const set = await api('PATCH', '/me', employee.headers, { language: 'uk' });
    expect(set.statusCode).toBe(200);
    expect(set.json().user.language).toBe('uk');
    expect((await api('GET', '/me', employee.headers)).json().user.language).toBe('uk');
    expect((await api('PATCH', '/me', employee.headers, { language: 'de' })).statusCode).toBe(422);
    expect((await api('PATCH', '/me', employee.headers, {})).statusCode).toBe(422);
    expect((await api('PATCH', '/me', employee.headers, { language: null })).json().user.language).toBeNull();
  });

  it('is set by an administrator with PATCH /users/:id and shown in the user views', async () => {
    const department = await createDepartment(ctx.container);
    const admin = await manager(department.id);
    const employee = await createUser(ctx.container, { departmentId: department.id });
    const res = await api('PATCH', `/users/${employee.user.id}`, admin.headers, { language: 'ru' });
    expect(res.statusCode).toBe(200);
    expect(res.json().language).toBe('ru');
    expect((await api('GET', `/users/${employee.user.id}`, admin.headers)).json().language).toBe('ru');
    expect(
      (await api('PATCH', `/users/${employee.user.id}`, admin.headers, { language: 'xx' })).statusCode,
    ).toBe(422);
  });

  it('is held to en, uk or ru by the database too', async () => {
    const employee = await createUser(ctx.container);
    await expect(
      ctx.container.db.update(users).set({ language: 'de' }).where(eq(users.id, employee.user.id)),
    ).rejects.toThrow();
  });
});

describe('PUT /me/approval-channels', () => {
  it('turns chat approvals on for a channel the approver is linked on, shows them in GET /me, and audits it', async () => {
    const department = await createDepartment(ctx.container);
    const admin = await createUser(ctx.container, { role: 'admin', departmentId: department.id });
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: department.id });
    expect((await api('GET', '/me', approver.headers)).json().approvalChannels).toEqual([]);
    const linked = await api('PUT', `/users/${approver.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: telegramId(),
    });
    expect(linked.statusCode).toBe(200);

    const set = await api('PUT', '/me/approval-channels', approver.headers, { channels: ['chanB'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ approvalChannels: ['chanB'] });
    expect((await api('GET', '/me', approver.headers)).json().approvalChannels).toEqual(['chanB']);
    const [entry] = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, approver.user.id), eq(auditLogs.action, 'set-approval-channels')));
    expect(entry).toBeDefined();

    const off = await api('PUT', '/me/approval-channels', approver.headers, { channels: [] });
    expect(off.json()).toEqual({ approvalChannels: [] });
    expect((await api('GET', '/me', approver.headers)).json().approvalChannels).toEqual([]);
  });

  it('answers 422 for a channel without an identity, or a repeated or unknown channel, and changes nothing', async () => {
    const department = await createDepartment(ctx.container);
    const admin = await createUser(ctx.container, { role: 'admin', departmentId: department.id });
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: department.id });
    await api('PUT', `/users/${approver.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: telegramId(),
    });
    expect(
      (await api('PUT', '/me/approval-channels', approver.headers, { channels: ['chanB'] })).statusCode,
    ).toBe(200);
    const missing = await api('PUT', '/me/approval-channels', approver.headers, {
      channels: ['chanA', 'chanB'],
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      error: 'ValidationError',
      details: [{ field: 'body.channels', message: expect.stringContaining('no chanA identity') }],
    });
    for (const channels of [['chanB', 'chanB'], ['email'], 'chanB']) {
      expect((await api('PUT', '/me/approval-channels', approver.headers, { channels })).statusCode).toBe(
        422,
      );
    }
    expect((await api('GET', '/me', approver.headers)).json().approvalChannels).toEqual(['chanB']);
  });

  it('drops a channel from the list when its identity is unlinked', async () => {
    const department = await createDepartment(ctx.container);
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: department.id });
    const admin = await createUser(ctx.container, { role: 'admin', departmentId: department.id });
    await api('PUT', `/users/${approver.user.id}/channel-identities/chanB`, admin.headers, {
      channelUserId: telegramId(),
    });
    await api('PUT', '/me/approval-channels', approver.headers, { channels: ['chanB'] });
    expect((await api('DELETE', '/me/channel-identities/chanB', approver.headers)).statusCode).toBe(204);
    expect((await api('GET', '/me', approver.headers)).json().approvalChannels).toEqual([]);
  });
});
