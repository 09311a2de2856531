import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { createDepartment, createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { namespaces } from '../../core/db/schema/index.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

const api = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const otherDepartmentUrl =
  (suffix = '') =>
  async () =>
    `/api/v1/departments/${(await createDepartment(ctx.container)).id}${suffix}`;

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/departments' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/departments/${randomUUID()}`,
  otherDepartmentUrl: otherDepartmentUrl(),
});
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/departments',
  payload: { name: 'Security' },
  permission: 'canManageDepartments',
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/departments/${randomUUID()}`,
  payload: { name: 'Renamed' },
  permission: 'canManageDepartments',
});
securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/departments/${randomUUID()}/archive`,
  permission: 'canArchiveDepartments',
});

describe('POST /departments', () => {
  it('creates a department with a slug from the name, numbered when taken', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const first = await api('POST', '/departments', admin.headers, {
      name: 'Customer Care',
      color: '#AABBCC',
      description: 'Front line',
      settings: { greeting: 'hi' },
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      name: 'Customer Care',
      slug: 'customer-care',
      color: '#aabbcc',
      description: 'Front line',
      settings: { greeting: 'hi' },
      isArchived: false,
      archivedAt: null,
    });
    const second = await api('POST', '/departments', admin.headers, { name: 'Customer  Care!' });
    expect(second.statusCode).toBe(201);
    expect(second.json().slug).toBe('customer-care-2');
    expect(second.json().color).toBe('#64748b');
  });

  it('answers 409 for an explicit slug that is taken', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const taken = await createDepartment(ctx.container);
    const res = await api('POST', '/departments', admin.headers, { name: 'Dup', slug: taken.slug });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ConflictError');
  });

  it('answers 422 for a bad colour, slug, oversized settings or a namespace the new department cannot own', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const cases = [
      { name: 'X', color: 'red' },
      { name: 'X', slug: 'Not A Slug' },
      { name: '' },
      { name: 'X', settings: { big: 'x'.repeat(17 * 1024) } },
      { name: 'X', settings: { defaultNamespaceId: randomUUID() } },
      { name: 'X', settings: 'not an object' },
    ];
    for (const payload of cases) {
      const res = await api('POST', '/departments', admin.headers, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(res.json().error).toBe('ValidationError');
    }
  });
});

describe('GET /departments', () => {
  it('lists only the caller’s departments for a non-global user, with search and includeArchived', async () => {
    const own = await createDepartment(ctx.container, { name: 'Zeta Logistics' });
    const extra = await createDepartment(ctx.container, { name: 'Zeta Archive', archivedAt: new Date() });
    const foreign = await createDepartment(ctx.container, { name: 'Zeta Foreign' });
    const caller = await createUser(ctx.container, {
      departmentId: own.id,
      extraDepartmentIds: [extra.id],
    });
    const listed = await api('GET', '/departments?search=zeta', caller.headers);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.map((d: { id: string }) => d.id)).toEqual([own.id]);
    expect(listed.json()).toMatchObject({ total: 1, limit: 20, offset: 0 });
    const withArchived = await api('GET', '/departments?search=zeta&includeArchived=true', caller.headers);
    expect(
      withArchived
        .json()
        .items.map((d: { id: string }) => d.id)
        .sort(),
    ).toEqual([own.id, extra.id].sort());
    expect(withArchived.json().items.map((d: { id: string }) => d.id)).not.toContain(foreign.id);
  });

  it('lists every department for a global user and treats LIKE wildcards literally', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const a = await createDepartment(ctx.container, { name: 'Percent 100% Team' });
    await createDepartment(ctx.container, { name: 'Percent 1000 Team' });
    const res = await api('GET', `/departments?search=${encodeURIComponent('100%')}`, admin.headers);
    expect(res.json().items.map((d: { id: string }) => d.id)).toEqual([a.id]);
  });

  it('answers 422 for a limit over 100', async () => {
    const caller = await createUser(ctx.container);
    expect((await api('GET', '/departments?limit=101', caller.headers)).statusCode).toBe(422);
  });
});

describe('GET /departments/:id', () => {
  it('answers the caller’s department and 404 for another one', async () => {
    const caller = await createUser(ctx.container);
    const own = await api('GET', `/departments/${caller.user.departmentId}`, caller.headers);
    expect(own.statusCode).toBe(200);
    expect(own.json().id).toBe(caller.user.departmentId);
    const other = await createDepartment(ctx.container);
    expect((await api('GET', `/departments/${other.id}`, caller.headers)).statusCode).toBe(404);
  });
});

describe('PATCH /departments/:id', () => {
  it('changes name, colour, description and settings, never the slug', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const department = await createDepartment(ctx.container);
    const [namespace] = await ctx.container.db
      .insert(namespaces)
      .values({ name: 'Main', departmentId: department.id })
      .returning();
    const res = await api('PATCH', `/departments/${department.id}`, admin.headers, {
      name: 'Renamed',
      color: '#123',
      description: null,
      settings: { defaultNamespaceId: namespace!.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      color: '#123',
      description: null,
      slug: department.slug,
      settings: { defaultNamespaceId: namespace!.id },
    });
    const slug = await api('PATCH', `/departments/${department.id}`, admin.headers, { slug: 'renamed' });
    expect(slug.statusCode).toBe(422);
    expect(slug.json().details).toEqual([
      { field: 'body.slug', message: 'must NOT have additional properties' },
    ]);
  });

  it('refuses a default namespace of another department and changes nothing', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const department = await createDepartment(ctx.container, { name: 'Keep Me' });
    const other = await createDepartment(ctx.container);
    const [namespace] = await ctx.container.db
      .insert(namespaces)
      .values({ name: 'Theirs', departmentId: other.id })
      .returning();
    const res = await api('PATCH', `/departments/${department.id}`, admin.headers, {
      name: 'Changed',
      settings: { defaultNamespaceId: namespace!.id },
    });
    expect(res.statusCode).toBe(422);
    expect((await ctx.container.repositories.departments.findById(department.id))?.name).toBe('Keep Me');
  });

  it('answers 404 to a non-global manager for a department outside their departments', async () => {
    const own = await createDepartment(ctx.container);
    const caller = await createUser(ctx.container, {
      departmentId: own.id,
      extraPermissions: ['canManageDepartments'],
    });
    const other = await createDepartment(ctx.container);
    expect((await api('PATCH', `/departments/${other.id}`, caller.headers, { name: 'X' })).statusCode).toBe(
      404,
    );
    expect((await api('PATCH', `/departments/${own.id}`, caller.headers, { name: 'Mine' })).statusCode).toBe(
      200,
    );
  });
});

describe('POST /departments/:id/archive', () => {
  it('soft-archives once, keeps the first time, and hides the department from lists', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const department = await createDepartment(ctx.container, { name: 'Short Lived Unit' });
    const first = await api('POST', `/departments/${department.id}/archive`, admin.headers);
    expect(first.statusCode).toBe(200);
    expect(first.json().isArchived).toBe(true);
    const again = await api('POST', `/departments/${department.id}/archive`, admin.headers);
    expect(again.json().archivedAt).toBe(first.json().archivedAt);
    const listed = await api('GET', '/departments?search=Short%20Lived', admin.headers);
    expect(listed.json().total).toBe(0);
    expect((await api('GET', `/departments/${department.id}`, admin.headers)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown department', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    expect((await api('POST', `/departments/${randomUUID()}/archive`, admin.headers)).statusCode).toBe(404);
  });
});
