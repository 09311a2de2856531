import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  createDepartment,
  createRole,
  createUser,
  TEST_PASSWORD,
  type TestUser,
} from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';

const ctx = useTestApp();
let auditor: TestUser;
beforeAll(async () => {
  auditor = await createUser(ctx.container, { role: 'admin' });
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const api = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { 'user-agent': 'audit-test/1.0', ...headers },
    ...(payload ? { payload } : {}),
  });
interface Entry {
  id: string;
  userId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  changes: Record<string, unknown> | null;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
}
const entries = async (query: string, headers = auditor.headers): Promise<Entry[]> => {
  const res = await api('GET', `/audit?limit=100&${query}`, headers);
  expect(res.statusCode).toBe(200);
  return res.json().items;
};

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/audit', permission: 'canViewAudit' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/users/${randomUUID()}/audit`,
  permission: 'canViewAudit',
  otherDepartmentUrl: async () => `/api/v1/users/${(await createUser(ctx.container)).user.id}/audit`,
});

describe('the audit hook', () => {
  it('records a login with the user from the login, the password redacted, IP and user agent', async () => {
    const user = await createUser(ctx.container);
    const res = await api('POST', '/auth/login', {}, { email: user.user.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const [entry, ...rest] = await entries(`userId=${user.user.id}&action=login`);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      userId: user.user.id,
      action: 'login',
      entityType: 'auth',
      changes: { email: user.user.email, password: '[REDACTED]' },
      userAgent: 'audit-test/1.0',
    });
    expect(entry?.ipAddress).toBeTruthy();
    expect(JSON.stringify(entry)).not.toContain(TEST_PASSWORD);
  });

  it('does not record a failed login or any other failed request', async () => {
    const user = await createUser(ctx.container, { role: 'admin' });
    const wrong = await api('POST', '/auth/login', {}, { email: user.user.email, password: 'wrong-pass-1' });
    expect(wrong.statusCode).toBe(401);
    const invalid = await api('POST', '/departments', user.headers, { name: '' });
    expect(invalid.statusCode).toBe(422);
    expect(await entries(`userId=${user.user.id}`)).toEqual([]);
  });

  it('records create, update and delete with the entity id and the body', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const created = await api('POST', '/departments', admin.headers, {
      name: 'Audited Unit',
      color: '#112233',
    });
    const id = created.json().id;
    await api('PATCH', `/departments/${id}`, admin.headers, { description: 'Now described' });
    const role = await createRole(ctx.container);
    await api('DELETE', `/roles/${role.id}`, admin.headers);
    const list = await entries(`userId=${admin.user.id}`);
    expect(list.map((e) => [e.action, e.entityType, e.entityId, e.changes]).reverse()).toEqual([
      ['create', 'departments', id, { name: 'Audited Unit', color: '#112233' }],
      ['update', 'departments', id, { description: 'Now described' }],
      ['delete', 'roles', role.id, null],
    ]);
  });

  it('redacts passwords and any key containing token or secret at any depth', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const department = await createDepartment(ctx.container);
    const created = await api('POST', '/users', admin.headers, {
      email: `redact-${randomUUID()}@example.test`,
      password: 'super-secret-9',
      name: 'Redacted',
      departmentId: department.id,
    });
    expect(created.statusCode).toBe(201);
    await api('PATCH', `/departments/${department.id}`, admin.headers, {
      settings: { crm: { apiToken: 'tok-123', clientSecret: 'shh', region: 'eu' } },
    });
    const list = await entries(`userId=${admin.user.id}`);
    const user = list.find((e) => e.entityType === 'users');
    expect(user).toMatchObject({ action: 'create', entityId: created.json().id });
    expect(user?.changes).toMatchObject({ password: '[REDACTED]', name: 'Redacted' });
    const settings = list.find((e) => e.entityType === 'departments');
    expect(settings?.changes).toEqual({
      settings: { crm: { apiToken: '[REDACTED]', clientSecret: '[REDACTED]', region: 'eu' } },
    });
    const text = JSON.stringify(list);
    for (const secret of ['super-secret-9', 'tok-123', 'shh']) expect(text).not.toContain(secret);
  });

  it('redacts both passwords of change-password and skips routes that opt out', async () => {
    const user = await createUser(ctx.container);
    const changed = await api('POST', '/me/change-password', user.headers, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'another-pass-7',
    });
    expect(changed.statusCode).toBe(200);
    await api('POST', '/auth/refresh', { authorization: `Bearer ${changed.json().token}` });
    await api('GET', '/me', { authorization: `Bearer ${changed.json().token}` });
    const list = await entries(`userId=${user.user.id}`);
    expect(list.map((e) => [e.action, e.entityType, e.entityId, e.changes])).toEqual([
      [
        'change-password',
        'users',
        user.user.id,
        { currentPassword: '[REDACTED]', newPassword: '[REDACTED]' },
      ],
    ]);
  });
});

describe('GET /audit', () => {
  it('filters by action, entityType and userId', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const other = await createUser(ctx.container, { role: 'admin' });
    const department = await api('POST', '/departments', admin.headers, { name: 'Filter Unit' });
    await api('PATCH', `/departments/${department.json().id}`, admin.headers, { name: 'Filter Unit 2' });
    await api('POST', '/roles', admin.headers, { name: 'Filter Role' });
    await api('POST', '/departments', other.headers, { name: 'Other Unit' });

    const byUser = await entries(`userId=${admin.user.id}`);
    expect(byUser).toHaveLength(3);
    const creates = await entries(`userId=${admin.user.id}&action=create`);
    expect(creates.map((e) => e.entityType).sort()).toEqual(['departments', 'roles']);
    const departmentCreates = await entries(`action=create&entityType=departments&userId=${admin.user.id}`);
    expect(departmentCreates).toHaveLength(1);
    const updates = await entries(`entityType=departments&action=update&userId=${admin.user.id}`);
    expect(updates.map((e) => e.changes)).toEqual([{ name: 'Filter Unit 2' }]);
    const everyone = await entries('action=create&entityType=departments');
    const actors = new Set(everyone.map((e) => e.userId));
    expect(actors.has(admin.user.id) && actors.has(other.user.id)).toBe(true);
  });

  it('pages newest first with total, limit and offset; a limit over 100 is 422', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    for (const name of ['P1', 'P2', 'P3']) await api('POST', '/roles', admin.headers, { name });
    const page = await api('GET', `/audit?userId=${admin.user.id}&limit=2&offset=1`, auditor.headers);
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.json().items.map((e: Entry) => e.changes?.name)).toEqual(['P2', 'P1']);
    expect((await api('GET', '/audit?limit=101', auditor.headers)).statusCode).toBe(422);
  });

  it('shows a non-global caller only entries by users of their departments', async () => {
    const head = await createUser(ctx.container, { role: 'dept_head' });
    const colleague = await createUser(ctx.container, { departmentId: head.user.departmentId });
    const outsider = await createUser(ctx.container);
    await api('PATCH', `/users/${colleague.user.id}`, colleague.headers, { name: 'Colleague Renamed' });
    await api('PATCH', `/users/${outsider.user.id}`, outsider.headers, { name: 'Outsider Renamed' });
    const seen = await entries('entityType=users&action=update', head.headers);
    const actors = new Set(seen.map((e) => e.userId));
    expect(actors.has(colleague.user.id)).toBe(true);
    expect(actors.has(outsider.user.id)).toBe(false);
    expect(await entries(`userId=${outsider.user.id}`, head.headers)).toEqual([]);
    expect((await entries(`userId=${outsider.user.id}`)).length).toBe(1);
  });
});

describe('GET /users/:id/audit', () => {
  it('lists entries made by the user and entries about the user', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const target = await createUser(ctx.container);
    await api('PATCH', `/users/${target.user.id}`, target.headers, { name: 'By Myself' });
    await api('POST', `/users/${target.user.id}/permissions/grant`, admin.headers, {
      permission: 'canApprove',
    });
    await api('POST', '/departments', admin.headers, { name: 'Unrelated' });
    const res = await api('GET', `/users/${target.user.id}/audit`, auditor.headers);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .items.map((e: Entry) => [e.userId, e.action])
        .reverse(),
    ).toEqual([
      [target.user.id, 'update'],
      [admin.user.id, 'grant'],
    ]);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await api('GET', `/users/${randomUUID()}/audit`, auditor.headers)).statusCode).toBe(404);
  });
});
