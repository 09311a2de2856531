import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createRole, createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { PERMISSIONS } from '../../core/auth/permissions.js';

const ctx = useTestApp();

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const api = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const adminHeaders = async () => (await createUser(ctx.container, { role: 'admin' })).headers;
const systemRole = async (slug: string) => (await ctx.container.repositories.roles.findBySlug(slug))!;

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/roles', permission: 'canViewRoles' });
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/roles',
  payload: { name: 'Security' },
  permission: 'canManageRoles',
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/roles/${randomUUID()}`,
  permission: 'canViewRoles',
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/roles/${randomUUID()}`,
  payload: { name: 'X' },
  permission: 'canManageRoles',
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/roles/${randomUUID()}`,
  permission: 'canManageRoles',
});

describe('POST /roles', () => {
  it('creates a role with a slug from the name and deduplicated lists', async () => {
    const headers = await adminHeaders();
    const department = await createDepartment(ctx.container);
    const res = await api('POST', '/roles', headers, {
      name: 'Night Shift',
      permissions: ['canApprove', 'canApprove', 'canViewKnowledge'],
      departmentIds: [department.id],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Night Shift',
      slug: 'night-shift',
      allDepartments: false,
      departmentIds: [department.id],
      permissions: ['canApprove', 'canViewKnowledge'],
      isSystem: false,
      userCount: 0,
    });
    const again = await api('POST', '/roles', headers, { name: 'Night Shift' });
    expect(again.json().slug).toBe('night-shift-2');
  });

  it('answers 422 for a permission outside the 19 names or an unknown department, and stores nothing', async () => {
    const headers = await adminHeaders();
    const bad = await api('POST', '/roles', headers, {
      name: 'Bad',
      slug: 'bad-perm',
      permissions: ['canFly'],
    });
    expect(bad.statusCode).toBe(422);
    const unknown = await api('POST', '/roles', headers, {
      name: 'Bad',
      slug: 'bad-dept',
      departmentIds: [randomUUID()],
    });
    expect(unknown.statusCode).toBe(422);
    expect(await ctx.container.repositories.roles.findBySlug('bad-perm')).toBeNull();
    expect(await ctx.container.repositories.roles.findBySlug('bad-dept')).toBeNull();
  });

  it('answers 409 for a taken slug', async () => {
    const headers = await adminHeaders();
    const res = await api('POST', '/roles', headers, { name: 'Another admin', slug: 'admin' });
    expect(res.statusCode).toBe(409);
  });

  it('refuses (403) a non-global role manager creating a role with more than they hold', async () => {
    const caller = await createUser(ctx.container, {
      role: 'dept_head',
      extraPermissions: ['canManageRoles'],
    });
    const wider = await api('POST', '/roles', caller.headers, {
      name: 'Wider',
      permissions: ['canEditSettings'],
    });
    expect(wider.statusCode).toBe(403);
    const global = await api('POST', '/roles', caller.headers, { name: 'Global', allDepartments: true });
    expect(global.statusCode).toBe(403);
    const within = await api('POST', '/roles', caller.headers, {
      name: 'Within',
      permissions: ['canApprove'],
      departmentIds: [caller.user.departmentId],
    });
    expect(within.statusCode).toBe(201);
  });
});

describe('GET /roles', () => {
  it('hides system roles unless includeSystem, searches name and slug, counts holders', async () => {
    const headers = await adminHeaders();
    const role = await createRole(ctx.container, { name: 'Searchable Quokka' });
    await createUser(ctx.container, { role: role.slug });
    const custom = await api('GET', '/roles?search=quokka', headers);
    expect(custom.statusCode).toBe(200);
    expect(custom.json().items).toEqual([expect.objectContaining({ id: role.id, userCount: 1 })]);
    const withoutSystem = await api('GET', '/roles?limit=100', headers);
    expect(withoutSystem.json().items.some((r: { isSystem: boolean }) => r.isSystem)).toBe(false);
    const withSystem = await api('GET', '/roles?includeSystem=true&limit=100', headers);
    const slugs = withSystem.json().items.map((r: { slug: string }) => r.slug);
    expect(slugs).toEqual(expect.arrayContaining(['admin', 'dept_head', 'approver', 'employee']));
  });
});

describe('GET /roles/:id', () => {
  it('answers a role and 404 for an unknown id', async () => {
    const headers = await adminHeaders();
    const admin = await systemRole('admin');
    const res = await api('GET', `/roles/${admin.id}`, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ slug: 'admin', isSystem: true, allDepartments: true });
    expect(res.json().permissions).toHaveLength(PERMISSIONS.length);
    expect((await api('GET', `/roles/${randomUUID()}`, headers)).statusCode).toBe(404);
  });
});

describe('PATCH /roles/:id', () => {
  it('changes the permissions of every holder on their next request', async () => {
    const headers = await adminHeaders();
    const role = await createRole(ctx.container, { permissions: ['canViewKnowledge'] });
    const holder = await createUser(ctx.container, { role: role.slug });
    expect((await api('GET', '/roles', holder.headers)).statusCode).toBe(403);
    const res = await api('PATCH', `/roles/${role.id}`, headers, { permissions: ['canViewRoles'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().permissions).toEqual(['canViewRoles']);
    expect((await api('GET', '/roles', holder.headers)).statusCode).toBe(200);
  });

  it('copies a new slug to every holder', async () => {
    const headers = await adminHeaders();
    const role = await createRole(ctx.container);
    const holder = await createUser(ctx.container, { role: role.slug });
    const slug = `renamed-${role.slug}`;
    const res = await api('PATCH', `/roles/${role.id}`, headers, { slug });
    expect(res.statusCode).toBe(200);
    const stored = await ctx.container.repositories.users.findById(holder.user.id);
    expect(stored).toMatchObject({ role: slug, roleId: role.id });
  });

  it('edits a system role’s permissions but refuses its slug (409)', async () => {
    const headers = await adminHeaders();
    const approver = await systemRole('approver');
    const res = await api('PATCH', `/roles/${approver.id}`, headers, {
      permissions: [...approver.permissions, 'canViewRoles'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().permissions).toContain('canViewRoles');
    const restored = await api('PATCH', `/roles/${approver.id}`, headers, {
      permissions: approver.permissions,
    });
    expect(restored.statusCode).toBe(200);
    const slug = await api('PATCH', `/roles/${approver.id}`, headers, { slug: 'reviewer' });
    expect(slug.statusCode).toBe(409);
    expect((await systemRole('approver')).slug).toBe('approver');
  });

  it('keeps admin whole (409) so the service stays manageable', async () => {
    const headers = await adminHeaders();
    const admin = await systemRole('admin');
    expect(
      (await api('PATCH', `/roles/${admin.id}`, headers, { permissions: ['canViewRoles'] })).statusCode,
    ).toBe(409);
    expect((await api('PATCH', `/roles/${admin.id}`, headers, { allDepartments: false })).statusCode).toBe(
      409,
    );
    expect((await api('PATCH', `/roles/${admin.id}`, headers, { name: 'Superuser' })).statusCode).toBe(200);
    await api('PATCH', `/roles/${admin.id}`, headers, { name: admin.name });
  });

  it('answers 409 when the new slug is taken and 404 for an unknown role', async () => {
    const headers = await adminHeaders();
    const role = await createRole(ctx.container);
    const other = await createRole(ctx.container);
    expect((await api('PATCH', `/roles/${role.id}`, headers, { slug: other.slug })).statusCode).toBe(409);
    expect((await api('PATCH', `/roles/${randomUUID()}`, headers, { name: 'X' })).statusCode).toBe(404);
  });
});

describe('DELETE /roles/:id', () => {
  it('deletes an unassigned custom role', async () => {
    const headers = await adminHeaders();
    const role = await createRole(ctx.container);
    expect((await api('DELETE', `/roles/${role.id}`, headers)).statusCode).toBe(204);
    expect(await ctx.container.repositories.roles.findById(role.id)).toBeNull();
  });

  it('answers 409 for a system role and for a role assigned to users', async () => {
    const headers = await adminHeaders();
    const employee = await systemRole('employee');
    const system = await api('DELETE', `/roles/${employee.id}`, headers);
    expect(system.statusCode).toBe(409);
    expect(system.json().error).toBe('ConflictError');
    const role = await createRole(ctx.container);
    await createUser(ctx.container, { role: role.slug });
    expect((await api('DELETE', `/roles/${role.id}`, headers)).statusCode).toBe(409);
    expect(await ctx.container.repositories.roles.findById(role.id)).not.toBeNull();
  });

  it('answers 404 for an unknown role', async () => {
    expect((await api('DELETE', `/roles/${randomUUID()}`, await adminHeaders())).statusCode).toBe(404);
  });
});
