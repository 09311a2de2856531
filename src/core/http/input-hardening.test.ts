import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createUser, type TestUser } from '../../../test/factories.js';
import { PERMISSIONS } from '../auth/permissions.js';
import { auditLogs, departments, users } from '../db/schema/index.js';
import { UNSAFE_TEXT_MESSAGE } from './unsafe-text.js';

const ctx = useTestApp();
let admin: TestUser;
beforeAll(async () => {
  admin = await createUser(ctx.container, { role: 'admin' });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectUnsafeTextError(res: { statusCode: number; json(): unknown }, field: string) {
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({
    error: 'ValidationError',
    message: 'Request validation failed',
    statusCode: 422,
    details: [{ field, message: UNSAFE_TEXT_MESSAGE }],
  });
}

describe('text PostgreSQL cannot store', () => {
  it('answers 422 for a NUL in a body field, before the database sees it', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'a\u0000@example.test', password: 'whatever1' },
    });
    expectUnsafeTextError(res, 'body.email');
  });

  it('answers 422 for a NUL in the query string', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/users?search=ab%00cd', headers: admin.headers });
    expectUnsafeTextError(res, 'querystring.search');
  });

  it('answers 422 for a NUL or an unpaired surrogate deep in a free-form object, and creates nothing', async () => {
    const slug = `nul-${Date.now().toString(36)}`;
    for (const bad of ['hi\u0000there', 'half \ud83d pair']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/departments',
        headers: admin.headers,
        payload: { name: 'Nul test', slug, settings: { greeting: { text: [bad] } } },
      });
      expectUnsafeTextError(res, 'body.settings.greeting.text.0');
    }
    const rows = await ctx.container.db.select().from(departments).where(eq(departments.slug, slug));
    expect(rows).toEqual([]);
  });

  it('answers 422 for a NUL in an object key', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/departments',
      headers: admin.headers,
      payload: { name: 'Key test', settings: { 'bad\u0000key': 1 } },
    });
    expectUnsafeTextError(res, 'body.settings.badkey');
  });

  it('keeps a well-formed surrogate pair (an emoji)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/departments',
      headers: admin.headers,
      payload: { name: 'Emoji 😀 team' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Emoji 😀 team');
  });
});

describe('malformed paths', () => {
  it('answers 400 in the envelope for a malformed percent-encoding', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/departments/%ZZ', headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'BadRequestError',
      message: 'The request path is not valid: it has a malformed percent-encoding',
      statusCode: 400,
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('answers 400 in the envelope for a path parameter over 100 characters', async () => {
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${admin.user.id}/permissions/grant/${'p'.repeat(101)}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'BadRequestError',
      message: 'A path parameter is longer than 100 characters',
      statusCode: 400,
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });
});

describe('X-Request-Id', () => {
  it('is on every response: 2xx, 401, 404 and 422', async () => {
    const responses = await Promise.all([
      ctx.app.inject({ url: '/api/v1/health' }),
      ctx.app.inject({ url: '/api/v1/me', headers: admin.headers }),
      ctx.app.inject({ url: '/api/v1/me' }),
      ctx.app.inject({ url: '/api/v1/no-such-route' }),
      ctx.app.inject({ url: '/api/v1/users?limit=0', headers: admin.headers }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 401, 404, 422]);
    for (const res of responses) expect(res.headers['x-request-id']).toMatch(UUID);
    expect(new Set(responses.map((r) => r.headers['x-request-id'])).size).toBe(responses.length);
  });

  it('echoes a sane incoming id and replaces anything else with a UUID', async () => {
    const sane = await ctx.app.inject({ url: '/api/v1/me', headers: { 'x-request-id': 'edge-01.abc_Z' } });
    expect(sane.headers['x-request-id']).toBe('edge-01.abc_Z');
    for (const insane of ['has space', 'x'.repeat(65), 'semi;colon', '']) {
      const res = await ctx.app.inject({ url: '/api/v1/me', headers: { 'x-request-id': insane } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });
});

describe('messages for people', () => {
  it('states the password rule instead of a regular expression', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin.headers,
      payload: {
        email: `weak-${Date.now()}@example.test`,
        password: 'lettersonly',
        name: 'Weak',
        departmentId: admin.user.departmentId,
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      {
        field: 'body.password',
        message: 'must be 8 to 128 characters with at least one letter and one digit',
      },
    ]);
  });

  it('lists the allowed permission names for an unknown permission, in the body and in the path', async () => {
    const body = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/users/${admin.user.id}/permissions/grant`,
      headers: admin.headers,
      payload: { permission: 'canFly' },
    });
    expect(body.statusCode).toBe(422);
    expect(body.json().details).toEqual([
      { field: 'body.permission', message: `must be one of: ${PERMISSIONS.join(', ')}` },
    ]);
    const param = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${admin.user.id}/permissions/grant/canFly`,
      headers: admin.headers,
    });
    expect(param.statusCode).toBe(422);
    expect(param.json().details[0].message).toContain(PERMISSIONS.join(', '));
  });
});

describe('a NUL in the body of an audited action', () => {
  const auditRows = (entityType: string, entityId: string) =>
    ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityType, entityType), eq(auditLogs.entityId, entityId)));

  it('POST /me/logout-all answers 422, keeps the session and writes no entry', async () => {
    const caller = await createUser(ctx.container, { role: 'admin' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/logout-all',
      headers: caller.headers,
      payload: { reason: 'bye\u0000' },
    });
    expectUnsafeTextError(res, 'body.reason');
    const [row] = await ctx.container.db.select().from(users).where(eq(users.id, caller.user.id));
    expect(row?.tokenVersion).toBe(caller.user.tokenVersion);
    expect((await ctx.app.inject({ url: '/api/v1/me', headers: caller.headers })).statusCode).toBe(200);
    expect(await auditRows('users', caller.user.id)).toEqual([]);
  });

  it('POST /departments/:id/archive answers 422, archives nothing and writes no entry', async () => {
    const department = await createDepartment(ctx.container);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/departments/${department.id}/archive`,
      headers: admin.headers,
      payload: { note: '\u0000' },
    });
    expectUnsafeTextError(res, 'body.note');
    const [row] = await ctx.container.db.select().from(departments).where(eq(departments.id, department.id));
    expect(row?.archivedAt).toBeNull();
    expect(await auditRows('departments', department.id)).toEqual([]);

    const clean = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/departments/${department.id}/archive`,
      headers: admin.headers,
      payload: { note: 'done' },
    });
    expect(clean.statusCode).toBe(200);
    expect(await auditRows('departments', department.id)).toEqual([
      expect.objectContaining({ action: 'archive', changes: { note: 'done' } }),
    ]);
  });
});
