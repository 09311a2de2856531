import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';

const ctx = useTestApp();

type Method = 'GET' | 'PATCH';
const api = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const foreignProfileUrl = async () =>
  `/api/v1/employees/${(await createUser(ctx.container)).user.id}/profile`;

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/employee-profiles' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/employees/${randomUUID()}/profile`,
  otherDepartmentUrl: foreignProfileUrl,
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/employees/${randomUUID()}/profile`,
  payload: { summary: 'x' },
  otherDepartmentUrl: foreignProfileUrl,
});

describe('GET /employee-profiles', () => {
  it('lists profiles of the caller’s departments only; a foreign departmentId filter is 403', async () => {
    const department = await createDepartment(ctx.container);
    const caller = await createUser(ctx.container, { departmentId: department.id, name: 'Aaron Caller' });
    const colleague = await createUser(ctx.container, {
      departmentId: department.id,
      name: 'Beth Colleague',
    });
    const foreign = await createUser(ctx.container);
    const res = await api('GET', '/employee-profiles?limit=100', caller.headers);
    expect(res.statusCode).toBe(200);
    const ids = res.json().items.map((p: { userId: string }) => p.userId);
    expect(ids).toEqual([caller.user.id, colleague.user.id]);
    expect(ids).not.toContain(foreign.user.id);
    expect(res.json().items[0]).toMatchObject({
      summary: '',
      accessLevel: 'standard',
      departmentId: department.id,
    });
    const search = await api('GET', '/employee-profiles?search=beth', caller.headers);
    expect(search.json().items.map((p: { userId: string }) => p.userId)).toEqual([colleague.user.id]);
    const own = await api('GET', `/employee-profiles?departmentId=${department.id}`, caller.headers);
    expect(own.statusCode).toBe(200);
    const other = await api(
      'GET',
      `/employee-profiles?departmentId=${foreign.user.departmentId}`,
      caller.headers,
    );
    expect(other.statusCode).toBe(403);
  });

  it('lets a global user filter by any department', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const target = await createUser(ctx.container);
    const res = await api(
      'GET',
      `/employee-profiles?departmentId=${target.user.departmentId}`,
      admin.headers,
    );
    expect(res.json().items.map((p: { userId: string }) => p.userId)).toEqual([target.user.id]);
  });
});

describe('GET /employees/:userId/profile', () => {
  it('answers one’s own profile and a colleague’s; 404 for an unknown user', async () => {
    const caller = await createUser(ctx.container);
    const colleague = await createUser(ctx.container, { departmentId: caller.user.departmentId });
    expect((await api('GET', `/employees/${caller.user.id}/profile`, caller.headers)).statusCode).toBe(200);
    const res = await api('GET', `/employees/${colleague.user.id}/profile`, caller.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: colleague.user.id, name: colleague.user.name });
    expect(res.body).not.toContain(colleague.user.email);
    expect((await api('GET', `/employees/${randomUUID()}/profile`, caller.headers)).statusCode).toBe(404);
  });
});

describe('PATCH /employees/:userId/profile', () => {
  it('lets anyone edit their own profile, replacing lists and objects whole', async () => {
    const caller = await createUser(ctx.container);
    const url = `/employees/${caller.user.id}/profile`;
    const res = await api('PATCH', url, caller.headers, {
      summary: 'Handles invoices',
      currentProjects: ['Billing'],
      preferences: { language: 'uk', tone: { formal: true } },
      frequentIntents: ['invoice_status'],
      metadata: { source: 'manual' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      summary: 'Handles invoices',
      currentProjects: ['Billing'],
      preferences: { language: 'uk', tone: { formal: true } },
      frequentIntents: ['invoice_status'],
      metadata: { source: 'manual' },
      accessLevel: 'standard',
    });
    const again = await api('PATCH', url, caller.headers, { currentProjects: [], preferences: {} });
    expect(again.json()).toMatchObject({ currentProjects: [], preferences: {}, summary: 'Handles invoices' });
  });

  it('needs canManageEmployeeProfiles for a colleague (403) and for one’s own accessLevel', async () => {
    const caller = await createUser(ctx.container);
    const colleague = await createUser(ctx.container, { departmentId: caller.user.departmentId });
    const other = await api('PATCH', `/employees/${colleague.user.id}/profile`, caller.headers, {
      summary: 'x',
    });
    expect(other.statusCode).toBe(403);
    const level = await api('PATCH', `/employees/${caller.user.id}/profile`, caller.headers, {
      accessLevel: 'elevated',
    });
    expect(level.statusCode).toBe(403);
    const head = await createUser(ctx.container, {
      role: 'dept_head',
      departmentId: caller.user.departmentId,
    });
    const managed = await api('PATCH', `/employees/${colleague.user.id}/profile`, head.headers, {
      summary: 'Set by the head',
      accessLevel: 'elevated',
    });
    expect(managed.statusCode).toBe(200);
    expect(managed.json()).toMatchObject({ summary: 'Set by the head', accessLevel: 'elevated' });
  });

  it('answers 404 to a manager for a profile outside their departments', async () => {
    const head = await createUser(ctx.container, { role: 'dept_head' });
    const foreign = await createUser(ctx.container);
    const res = await api('PATCH', `/employees/${foreign.user.id}/profile`, head.headers, { summary: 'x' });
    expect(res.statusCode).toBe(404);
  });

  it('answers 422 for oversized or malformed fields and changes nothing', async () => {
    const caller = await createUser(ctx.container);
    const url = `/employees/${caller.user.id}/profile`;
    for (const payload of [
      { preferences: { big: 'x'.repeat(17 * 1024) } },
      { summary: 'x'.repeat(5001) },
      { currentProjects: 'Billing' },
      { frequentIntents: Array.from({ length: 51 }, (_, i) => `i${i}`) },
      { metadata: [] },
    ]) {
      const res = await api('PATCH', url, caller.headers, { summary: 'changed', ...payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(422);
    }
    expect((await ctx.container.repositories.users.findProfile(caller.user.id))?.summary).toBe('');
  });
});
