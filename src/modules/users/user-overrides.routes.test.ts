import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { createDepartment, createRole, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';

let ctx: TestContext;
let admin: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createUser(ctx.container, { role: 'admin' });
});
afterAll(() => ctx?.close());

type Method = 'GET' | 'POST' | 'DELETE';
const api = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const grant = (userId: string, body: object, headers = admin.headers) =>
  api('POST', `/users/${userId}/permissions/grant`, headers, body);
const revoke = (userId: string, body: object, headers = admin.headers) =>
  api('POST', `/users/${userId}/permissions/revoke`, headers, body);
const removeGrant = (userId: string, key: string, headers = admin.headers) =>
  api('DELETE', `/users/${userId}/permissions/grant/${key}`, headers);
const removeRevoke = (userId: string, key: string, headers = admin.headers) =>
  api('DELETE', `/users/${userId}/permissions/revoke/${key}`, headers);
/** Whether the user can read the audit log right now (needs canViewAudit). */
const auditStatus = async (user: TestUser) => (await api('GET', '/audit', user.headers)).statusCode;
const departmentStatus = async (user: TestUser, departmentId: string) =>
  (await api('GET', `/departments/${departmentId}`, user.headers)).statusCode;

for (const path of ['grant', 'revoke'] as const) {
  securityChecks(() => ctx, {
    method: 'POST',
    url: `/api/v1/users/${randomUUID()}/permissions/${path}`,
    payload: { permission: 'canApprove' },
    permission: 'canManageUsers',
  });
  securityChecks(() => ctx, {
    method: 'DELETE',
    url: `/api/v1/users/${randomUUID()}/permissions/${path}/canApprove`,
    permission: 'canManageUsers',
  });
}

describe('permission overrides', () => {
  it('a revoke beats the role’s grant, and removing the revoke restores it', async () => {
    const head = await createUser(ctx.container, { role: 'dept_head' });
    expect(await auditStatus(head)).toBe(200);
    const revoked = await revoke(head.user.id, { permission: 'canViewAudit' });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().effectivePermissions).not.toContain('canViewAudit');
    expect(revoked.json().overrides.revokedPermissions).toEqual(['canViewAudit']);
    expect(await auditStatus(head)).toBe(403);
    const restored = await removeRevoke(head.user.id, 'canViewAudit');
    expect(restored.statusCode).toBe(200);
    expect(restored.json().effectivePermissions).toContain('canViewAudit');
    expect(await auditStatus(head)).toBe(200);
  });

  it('a revoke beats an extra grant, and removing the revoke restores it', async () => {
    const employee = await createUser(ctx.container);
    expect(await auditStatus(employee)).toBe(403);
    expect((await grant(employee.user.id, { permission: 'canViewAudit' })).statusCode).toBe(200);
    expect(await auditStatus(employee)).toBe(200);
    await revoke(employee.user.id, { permission: 'canViewAudit' });
    expect(await auditStatus(employee)).toBe(403);
    // Granting again does not clear the revoke: revokes are applied last.
    const regranted = await grant(employee.user.id, { permission: 'canViewAudit' });
    expect(regranted.json().overrides.extraPermissions).toEqual(['canViewAudit']);
    expect(regranted.json().effectivePermissions).not.toContain('canViewAudit');
    expect(await auditStatus(employee)).toBe(403);
    await removeRevoke(employee.user.id, 'canViewAudit');
    expect(await auditStatus(employee)).toBe(200);
    const removed = await removeGrant(employee.user.id, 'canViewAudit');
    expect(removed.json().overrides.extraPermissions).toEqual([]);
    expect(await auditStatus(employee)).toBe(403);
  });
});

describe('department overrides', () => {
  it('a revoke beats an extra department grant, and removing the revoke restores it', async () => {
    const employee = await createUser(ctx.container);
    const extra = await createDepartment(ctx.container);
    expect(await departmentStatus(employee, extra.id)).toBe(404);
    const granted = await grant(employee.user.id, { departmentId: extra.id });
    expect(granted.json().effectiveDepartmentIds).toContain(extra.id);
    expect(await departmentStatus(employee, extra.id)).toBe(200);
    await revoke(employee.user.id, { departmentId: extra.id });
    expect(await departmentStatus(employee, extra.id)).toBe(404);
    await removeRevoke(employee.user.id, extra.id);
    expect(await departmentStatus(employee, extra.id)).toBe(200);
    await removeGrant(employee.user.id, extra.id);
    expect(await departmentStatus(employee, extra.id)).toBe(404);
  });

  it('a revoke beats the role’s departments and the primary department', async () => {
    const roleDepartment = await createDepartment(ctx.container);
    const role = await createRole(ctx.container, { departmentIds: [roleDepartment.id] });
    const user = await createUser(ctx.container, { role: role.slug });
    const primary = user.user.departmentId;
    expect(await departmentStatus(user, roleDepartment.id)).toBe(200);
    expect(await departmentStatus(user, primary)).toBe(200);
    await revoke(user.user.id, { departmentId: roleDepartment.id });
    await revoke(user.user.id, { departmentId: primary });
    expect(await departmentStatus(user, roleDepartment.id)).toBe(404);
    expect(await departmentStatus(user, primary)).toBe(404);
    await removeRevoke(user.user.id, roleDepartment.id);
    await removeRevoke(user.user.id, primary);
    expect(await departmentStatus(user, roleDepartment.id)).toBe(200);
    expect(await departmentStatus(user, primary)).toBe(200);
  });
});

describe('override validation', () => {
  it('answers 422 for both keys, no key, an unknown permission or an unknown department, and changes nothing', async () => {
    const target = await createUser(ctx.container);
    const department = await createDepartment(ctx.container);
    for (const body of [
      { permission: 'canApprove', departmentId: department.id },
      {},
      { permission: 'canFly' },
      { departmentId: randomUUID() },
      { departmentId: 'not-a-uuid' },
    ]) {
      expect((await grant(target.user.id, body)).statusCode, JSON.stringify(body)).toBe(422);
      expect((await revoke(target.user.id, body)).statusCode, JSON.stringify(body)).toBe(422);
    }
    const stored = await ctx.container.repositories.users.findById(target.user.id);
    expect(stored).toMatchObject({
      extraPermissions: [],
      revokedPermissions: [],
      extraDepartmentIds: [],
      revokedDepartmentIds: [],
    });
  });

  it('answers 404 for removing an entry that is not there and 422 for a key that is neither permission nor id', async () => {
    const target = await createUser(ctx.container);
    expect((await removeGrant(target.user.id, 'canApprove')).statusCode).toBe(404);
    expect((await removeRevoke(target.user.id, randomUUID())).statusCode).toBe(404);
    expect((await removeGrant(target.user.id, 'canFly')).statusCode).toBe(422);
  });

  it('is idempotent: granting twice keeps one entry', async () => {
    const target = await createUser(ctx.container);
    await grant(target.user.id, { permission: 'canApprove' });
    const twice = await grant(target.user.id, { permission: 'canApprove' });
    expect(twice.json().overrides.extraPermissions).toEqual(['canApprove']);
  });
});

describe('who may change overrides', () => {
  it('answers 404 for a user outside the manager’s departments', async () => {
    const manager = await createUser(ctx.container, {
      role: 'dept_head',
      extraPermissions: ['canManageUsers'],
    });
    const foreign = await createUser(ctx.container);
    expect((await grant(foreign.user.id, { permission: 'canApprove' }, manager.headers)).statusCode).toBe(
      404,
    );
  });

  it('lets a manager hand out only what they hold', async () => {
    const manager = await createUser(ctx.container, {
      role: 'dept_head',
      extraPermissions: ['canManageUsers'],
    });
    const colleague = await createUser(ctx.container, { departmentId: manager.user.departmentId });
    const other = await createDepartment(ctx.container);
    expect(
      (await grant(colleague.user.id, { permission: 'canEditSettings' }, manager.headers)).statusCode,
    ).toBe(403);
    expect((await grant(colleague.user.id, { departmentId: other.id }, manager.headers)).statusCode).toBe(
      403,
    );
    expect((await grant(colleague.user.id, { permission: 'canApprove' }, manager.headers)).statusCode).toBe(
      200,
    );
    await revoke(colleague.user.id, { permission: 'canEditSettings' });
    expect((await removeRevoke(colleague.user.id, 'canEditSettings', manager.headers)).statusCode).toBe(403);
    expect((await revoke(colleague.user.id, { permission: 'canApprove' }, manager.headers)).statusCode).toBe(
      200,
    );
  });
});

describe('audit of override changes', () => {
  it('writes one entry per change, naming the changed key', async () => {
    const target = await createUser(ctx.container);
    const department = await createDepartment(ctx.container);
    await grant(target.user.id, { permission: 'canApprove' });
    await revoke(target.user.id, { departmentId: department.id });
    await removeGrant(target.user.id, 'canApprove');
    await removeRevoke(target.user.id, department.id);
    const res = await api('GET', `/audit?entityType=users&entityId=${target.user.id}`, admin.headers);
    const entries = res.json().items as Array<{ action: string; changes: unknown; userId: string }>;
    expect(entries.map((e) => [e.action, e.changes]).reverse()).toEqual([
      ['grant', { permission: 'canApprove' }],
      ['revoke', { departmentId: department.id }],
      ['remove-grant', { permission: 'canApprove' }],
      ['remove-revoke', { departmentId: department.id }],
    ]);
    expect(new Set(entries.map((e) => e.userId))).toEqual(new Set([admin.user.id]));
  });
});
