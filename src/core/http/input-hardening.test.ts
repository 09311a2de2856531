import { connect } from 'node:net';
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

  it('judges a path parameter up to 200 characters by its schema (422) and answers 404 past that', async () => {
    const judged = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${admin.user.id}/permissions/grant/${'p'.repeat(101)}`,
      headers: admin.headers,
    });
    expect(judged.statusCode).toBe(422);
    expect(judged.json().details).toEqual([
      { field: 'params.permission', message: 'must NOT have more than 64 characters' },
    ]);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${admin.user.id}/permissions/grant/${'p'.repeat(201)}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'NotFoundError',
      message: 'Nothing has a path parameter longer than 200 characters',
      statusCode: 404,
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('methods a path does not have', () => {
  it('answers 405 MethodNotAllowedError with Allow for TRACE, PUT and DELETE on known paths', async () => {
    const department = await createDepartment(ctx.container);
    for (const [method, url, allow] of [
      ['TRACE', '/api/v1/users', 'GET, HEAD, POST'],
      ['PUT', `/api/v1/departments/${department.id}`, 'GET, HEAD, PATCH'],
      ['DELETE', '/api/v1/health', 'GET, HEAD'],
      ['POST', '/console/inbox', 'GET, HEAD'],
    ] as const) {
      const res = await ctx.app.inject({ method, url, headers: admin.headers });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.json()).toEqual({
        error: 'MethodNotAllowedError',
        message: `Method ${method} is not allowed on ${url}`,
        statusCode: 405,
      });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('keeps 404 for a path no method has, whatever the method', async () => {
    for (const method of ['GET', 'TRACE', 'PUT'] as const) {
      const res = await ctx.app.inject({ method, url: '/api/v1/no-such-thing' });
      expect(res.statusCode).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.json().error).toBe('NotFoundError');
    }
  });

  it('answers a method that is not HTTP 400 in the envelope, on a real socket', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port: Number(port), host: '127.0.0.1' }, () => {
        socket.write('FOO /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body ?? '')).toEqual({
      error: 'BadRequestError',
      message: 'The request method is not an HTTP method',
      statusCode: 400,
    });
  });
});

describe('unknown properties and query parameters', () => {
  const expectUnknown = (
    res: { statusCode: number; json(): { error?: string; details?: unknown } },
    field: string,
  ) => {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    expect(res.json().details).toContainEqual({ field, message: 'must NOT have additional properties' });
  };

  it('answers 422 naming an unknown body property on the routes that took them silently', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const cases: Array<[method: 'POST' | 'PATCH', url: string, payload: object, field: string]> = [
      ['POST', '/api/v1/conversations/web/messages', { text: 'Hello', colour: 'red' }, 'body.colour'],
      [
        'POST',
        '/api/v1/approvals/batch',
        { decisions: [{ approvalId: id, action: 'approve' }], dryRun: true },
        'body.dryRun',
      ],
      [
        'POST',
        '/api/v1/approvals/batch',
        { decisions: [{ approvalId: id, action: 'approve', force: true }] },
        'body.decisions.0.force',
      ],
      ['PATCH', `/api/v1/knowledge/bases/${id}`, { name: 'Base', owner: 'me' }, 'body.owner'],
      ['PATCH', `/api/v1/employees/${admin.user.id}/profile`, { summary: 'Hi', salary: 1 }, 'body.salary'],
    ];
    for (const [method, url, payload, field] of cases) {
      expectUnknown(await ctx.app.inject({ method, url, payload, headers: admin.headers }), field);
    }
  });

  it('answers 422 naming an unknown query parameter on list routes, and keeps the known ones', async () => {
    for (const url of ['/api/v1/users', '/api/v1/roles', '/api/v1/plugins', '/api/v1/approvals']) {
      expectUnknown(
        await ctx.app.inject({ url: `${url}?limit=5&sort=name`, headers: admin.headers }),
        'querystring.sort',
      );
      expect((await ctx.app.inject({ url: `${url}?limit=5`, headers: admin.headers })).statusCode).toBe(200);
    }
  });

  it('states "exactly one of permission or departmentId" in the grant body schema of the OpenAPI description', async () => {
    const spec = (await ctx.app.inject({ url: '/docs/json' })).json();
    const schema =
      spec.paths['/users/{id}/permissions/grant'].post.requestBody.content['application/json'].schema;
    expect(schema).toMatchObject({ additionalProperties: false, minProperties: 1, maxProperties: 1 });
    const both = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/users/${admin.user.id}/permissions/grant`,
      headers: admin.headers,
      payload: { permission: 'canApprove', departmentId: admin.user.departmentId },
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().details).toContainEqual({
      field: 'body',
      message: 'must have exactly one of permission or departmentId',
    });
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
