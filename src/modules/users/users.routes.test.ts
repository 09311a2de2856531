import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { createDepartment, createRole, createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { onRevocation, type Revocation } from '../../core/realtime/revocations.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const api = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const me = (headers: Record<string, string>) => api('GET', '/me', headers);
const userInOtherDepartment = async () => `/api/v1/users/${(await createUser(ctx.container)).user.id}`;
const ids = (res: { json(): { items: Array<{ id: string }> } }) => res.json().items.map((u) => u.id);

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/users', permission: 'canViewAllUsers' });
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/users',
  payload: { email: 'sec@example.test', password: 'secret123', name: 'Sec', departmentId: randomUUID() },
  permission: 'canCreateUsers',
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/users/${randomUUID()}`,
  permission: 'canViewAllUsers',
  otherDepartmentUrl: userInOtherDepartment,
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/users/${randomUUID()}`,
  payload: { name: 'X' },
  permission: 'canManageUsers',
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/users/${randomUUID()}`,
  permission: 'canManageUsers',
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/users/${randomUUID()}/effective-access`,
  permission: 'canViewAllUsers',
  otherDepartmentUrl: async () => `${await userInOtherDepartment()}/effective-access`,
});

describe('GET /users', () => {
  it('lists only users of the caller’s departments, with role, department, search and isActive filters', async () => {
    const department = await createDepartment(ctx.container);
    const head = await createUser(ctx.container, { role: 'dept_head', departmentId: department.id });
    const alice = await createUser(ctx.container, { departmentId: department.id, name: 'Alice Wonder' });
    const bob = await createUser(ctx.container, {
      role: 'approver',
      departmentId: department.id,
      email: `bob-${randomUUID()}@wonder.test`,
    });
    const gone = await createUser(ctx.container, { departmentId: department.id, isActive: false });
    const foreign = await createUser(ctx.container, { name: 'Alice Elsewhere' });

    const all = await api('GET', '/users?limit=100', head.headers);
    expect(all.statusCode).toBe(200);
    expect(ids(all).sort()).toEqual([head.user.id, alice.user.id, bob.user.id, gone.user.id].sort());
    expect(ids(all)).not.toContain(foreign.user.id);
    expect(all.json().total).toBe(4);

    expect(ids(await api('GET', '/users?search=alice', head.headers))).toEqual([alice.user.id]);
    expect(ids(await api('GET', '/users?search=WONDER.TEST', head.headers))).toEqual([bob.user.id]);
    expect(ids(await api('GET', '/users?role=approver', head.headers))).toEqual([bob.user.id]);
    expect(ids(await api('GET', '/users?isActive=false', head.headers))).toEqual([gone.user.id]);
    const filtered = await api('GET', `/users?departmentId=${department.id}&limit=2&offset=0`, head.headers);
    expect(filtered.json()).toMatchObject({ total: 4, limit: 2, offset: 0 });
    expect(filtered.json().items).toHaveLength(2);
  });

  it('answers 403 for a departmentId filter outside the caller’s departments', async () => {
    const head = await createUser(ctx.container, { role: 'dept_head' });
    const other = await createDepartment(ctx.container);
    const res = await api('GET', `/users?departmentId=${other.id}`, head.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('ForbiddenError');
  });

  it('never returns password hashes or token versions', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const body = (await api('GET', '/users?limit=100', admin.headers)).body;
    expect(body).not.toContain('$argon2');
    expect(body).not.toContain('passwordHash');
    expect(body).not.toContain('tokenVersion');
  });
});

describe('POST /users', () => {
  it('creates an employee by default, with a profile, who can log in', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const department = await createDepartment(ctx.container);
    const res = await api('POST', '/users', admin.headers, {
      email: 'New.Hire@Example.test',
      password: 'welcome123',
      name: ' New Hire ',
      phone: '+380501234567',
      departmentId: department.id,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      email: 'new.hire@example.test',
      name: 'New Hire',
      phone: '380501234567',
      role: 'employee',
      departmentId: department.id,
      isActive: true,
    });
    expect(await ctx.container.repositories.users.findProfile(body.id)).not.toBeNull();
    const login = await api(
      'POST',
      '/auth/login',
      {},
      { email: 'new.hire@example.test', password: 'welcome123' },
    );
    expect(login.statusCode).toBe(200);
  });

  it('sets roleId from role and accepts a matching pair; 422 for unknown or mismatched roles', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const department = await createDepartment(ctx.container);
    const approver = (await ctx.container.repositories.roles.findBySlug('approver'))!;
    const base = { password: 'welcome123', name: 'R', departmentId: department.id };
    const bySlug = await api('POST', '/users', admin.headers, {
      ...base,
      email: 'slug@r.test',
      role: 'approver',
    });
    expect(bySlug.json()).toMatchObject({ role: 'approver', roleId: approver.id });
    const byId = await api('POST', '/users', admin.headers, {
      ...base,
      email: 'id@r.test',
      roleId: approver.id,
    });
    expect(byId.json()).toMatchObject({ role: 'approver', roleId: approver.id });
    const unknown = await api('POST', '/users', admin.headers, { ...base, email: 'u@r.test', role: 'pilot' });
    expect(unknown.statusCode).toBe(422);
    const mismatch = await api('POST', '/users', admin.headers, {
      ...base,
      email: 'm@r.test',
      role: 'employee',
      roleId: approver.id,
    });
    expect(mismatch.statusCode).toBe(422);
    expect(await ctx.container.repositories.users.findByEmail('m@r.test')).toBeNull();
  });

  it('answers 409 for a taken email, 422 for a weak password or an archived department', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const existing = await createUser(ctx.container);
    const department = await createDepartment(ctx.container);
    const archived = await createDepartment(ctx.container, { archivedAt: new Date() });
    const base = { password: 'welcome123', name: 'X', departmentId: department.id };
    expect(
      (await api('POST', '/users', admin.headers, { ...base, email: existing.user.email })).statusCode,
    ).toBe(409);
    const weak = await api('POST', '/users', admin.headers, {
      ...base,
      email: 'weak@x.test',
      password: 'password',
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().details[0].field).toBe('body.password');
    const gone = await api('POST', '/users', admin.headers, {
      ...base,
      email: 'a@x.test',
      departmentId: archived.id,
    });
    expect(gone.statusCode).toBe(422);
  });

  it('keeps a non-global creator to their departments and to roles they could hold', async () => {
    const creator = await createUser(ctx.container, {
      role: 'dept_head',
      extraPermissions: ['canCreateUsers'],
    });
    const other = await createDepartment(ctx.container);
    const base = { password: 'welcome123', name: 'X', departmentId: creator.user.departmentId };
    const foreign = await api('POST', '/users', creator.headers, {
      ...base,
      email: 'f@x.test',
      departmentId: other.id,
    });
    expect(foreign.statusCode).toBe(403);
    const admin = await api('POST', '/users', creator.headers, {
      ...base,
      email: 'adm@x.test',
      role: 'admin',
    });
    expect(admin.statusCode).toBe(403);
    const ok = await api('POST', '/users', creator.headers, {
      ...base,
      email: 'ok@x.test',
      role: 'approver',
    });
    expect(ok.statusCode).toBe(201);
  });
});

describe('GET /users/:id', () => {
  it('answers oneself without any permission', async () => {
    const role = await createRole(ctx.container);
    const caller = await createUser(ctx.container, { role: role.slug });
    const res = await api('GET', `/users/${caller.user.id}`, caller.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: caller.user.id, email: caller.user.email });
  });

  it('answers a colleague with canViewAllUsers and 403 without it', async () => {
    const department = await createDepartment(ctx.container);
    const colleague = await createUser(ctx.container, { departmentId: department.id });
    const viewer = await createUser(ctx.container, {
      departmentId: department.id,
      extraPermissions: ['canViewAllUsers'],
    });
    const plain = await createUser(ctx.container, { departmentId: department.id });
    expect((await api('GET', `/users/${colleague.user.id}`, viewer.headers)).statusCode).toBe(200);
    expect((await api('GET', `/users/${colleague.user.id}`, plain.headers)).statusCode).toBe(403);
  });
});

describe('PATCH /users/:id', () => {
  it('lets anyone change their own name and phone', async () => {
    const caller = await createUser(ctx.container);
    const res = await api('PATCH', `/users/${caller.user.id}`, caller.headers, {
      name: 'Renamed',
      phone: '+15551234567',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', phone: '15551234567' });
    const cleared = await api('PATCH', `/users/${caller.user.id}`, caller.headers, { phone: null });
    expect(cleared.json().phone).toBeNull();
  });

  it('answers 403 to a user without canManageUsers changing their own role, department or active state', async () => {
    const caller = await createUser(ctx.container);
    const other = await createDepartment(ctx.container);
    for (const payload of [
      { role: 'admin' },
      { departmentId: other.id },
      { isActive: true },
      { name: 'X', role: 'approver' },
    ]) {
      const res = await api('PATCH', `/users/${caller.user.id}`, caller.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
    }
    expect(await ctx.container.repositories.users.findById(caller.user.id)).toMatchObject({
      role: 'employee',
      name: caller.user.name,
    });
  });

  it('keeps role and roleId consistent whichever one is sent', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const target = await createUser(ctx.container);
    const approver = (await ctx.container.repositories.roles.findBySlug('approver'))!;
    const head = (await ctx.container.repositories.roles.findBySlug('dept_head'))!;
    const bySlug = await api('PATCH', `/users/${target.user.id}`, admin.headers, { role: 'approver' });
    expect(bySlug.json()).toMatchObject({ role: 'approver', roleId: approver.id });
    const byId = await api('PATCH', `/users/${target.user.id}`, admin.headers, { roleId: head.id });
    expect(byId.json()).toMatchObject({ role: 'dept_head', roleId: head.id });
    const mismatch = await api('PATCH', `/users/${target.user.id}`, admin.headers, {
      role: 'employee',
      roleId: approver.id,
    });
    expect(mismatch.statusCode).toBe(422);
    expect((await ctx.container.repositories.users.findById(target.user.id))?.role).toBe('dept_head');
  });

  it('moves a user to another department and answers 403 for a department outside the manager’s', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const target = await createUser(ctx.container);
    const destination = await createDepartment(ctx.container);
    const moved = await api('PATCH', `/users/${target.user.id}`, admin.headers, {
      departmentId: destination.id,
    });
    expect(moved.json().departmentId).toBe(destination.id);

    const manager = await createUser(ctx.container, {
      role: 'dept_head',
      extraPermissions: ['canManageUsers'],
    });
    const colleague = await createUser(ctx.container, { departmentId: manager.user.departmentId });
    const outside = await api('PATCH', `/users/${colleague.user.id}`, manager.headers, {
      departmentId: destination.id,
    });
    expect(outside.statusCode).toBe(403);
  });

  it('answers 404 for a user outside the manager’s departments and 403 for a more powerful one', async () => {
    const manager = await createUser(ctx.container, {
      role: 'dept_head',
      extraPermissions: ['canManageUsers'],
    });
    const foreign = await createUser(ctx.container);
    expect((await api('PATCH', `/users/${foreign.user.id}`, manager.headers, { name: 'X' })).statusCode).toBe(
      404,
    );
    const boss = await createUser(ctx.container, { role: 'admin', departmentId: manager.user.departmentId });
    expect((await api('PATCH', `/users/${boss.user.id}`, manager.headers, { name: 'X' })).statusCode).toBe(
      403,
    );
    const promote = await createUser(ctx.container, { departmentId: manager.user.departmentId });
    expect(
      (await api('PATCH', `/users/${promote.user.id}`, manager.headers, { role: 'admin' })).statusCode,
    ).toBe(403);
  });

  it('deactivates with isActive=false (409 on oneself) and reactivates with isActive=true', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const target = await createUser(ctx.container);
    const off = await api('PATCH', `/users/${target.user.id}`, admin.headers, { isActive: false });
    expect(off.json().isActive).toBe(false);
    expect((await me(target.headers)).statusCode).toBe(401);
    const on = await api('PATCH', `/users/${target.user.id}`, admin.headers, { isActive: true });
    expect(on.json().isActive).toBe(true);
    const self = await api('PATCH', `/users/${admin.user.id}`, admin.headers, { isActive: false });
    expect(self.statusCode).toBe(409);
  });

  it('answers 409 for a phone number another user has', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    await createUser(ctx.container, { phone: '15550001111' });
    const target = await createUser(ctx.container);
    const res = await api('PATCH', `/users/${target.user.id}`, admin.headers, { phone: '+15550001111' });
    expect(res.statusCode).toBe(409);
  });
});

describe('DELETE /users/:id', () => {
  it('deactivates: the next request with the user’s token is 401, sockets are told, login is refused', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const target = await createUser(ctx.container);
    expect((await me(target.headers)).statusCode).toBe(200);
    const revocations: Revocation[] = [];
    const unsubscribe = await onRevocation(ctx.container.bus, (r) => revocations.push(r));
    const res = await api('DELETE', `/users/${target.user.id}`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().isActive).toBe(false);
    expect((await me(target.headers)).statusCode).toBe(401);
    await expect.poll(() => revocations).toContainEqual({ userId: target.user.id, reason: 'deactivated' });
    await unsubscribe();
    const login = await api('POST', '/auth/login', {}, { email: target.user.email, password: TEST_PASSWORD });
    expect(login.statusCode).toBe(401);
    expect((await api('DELETE', `/users/${target.user.id}`, admin.headers)).statusCode).toBe(200);
  });

  it('answers 409 for oneself and 404 for an unknown user', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    expect((await api('DELETE', `/users/${admin.user.id}`, admin.headers)).statusCode).toBe(409);
    expect((await me(admin.headers)).statusCode).toBe(200);
    expect((await api('DELETE', `/users/${randomUUID()}`, admin.headers)).statusCode).toBe(404);
  });
});

describe('GET /users/:id/effective-access', () => {
  it('answers the role, the overrides and the computed access, for oneself too', async () => {
    const extra = await createDepartment(ctx.container);
    const caller = await createUser(ctx.container, {
      role: 'approver',
      extraPermissions: ['canViewAudit'],
      revokedPermissions: ['canEscalate'],
      extraDepartmentIds: [extra.id],
    });
    const res = await api('GET', `/users/${caller.user.id}/effective-access`, caller.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.role).toMatchObject({ slug: 'approver', isSystem: true });
    expect(body.overrides).toEqual({
      extraPermissions: ['canViewAudit'],
      revokedPermissions: ['canEscalate'],
      extraDepartmentIds: [extra.id],
      revokedDepartmentIds: [],
    });
    expect(body.isGlobal).toBe(false);
    expect(body.effectivePermissions.sort()).toEqual(
      ['canApprove', 'canViewKnowledge', 'canUploadDocuments', 'canGenerateDocuments', 'canViewAudit'].sort(),
    );
    expect(body.effectiveDepartmentIds.sort()).toEqual([caller.user.departmentId, extra.id].sort());
  });
});
