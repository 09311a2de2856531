import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { onRevocation, type Revocation } from '../../core/realtime/revocations.js';

const ctx = useTestApp();
const captured: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  // Reset tokens are delivered through the log; capture what forgot-password writes.
  const original = ctx.container.logger.info.bind(ctx.container.logger);
  ctx.container.logger.info = ((obj: unknown, ...rest: unknown[]) => {
    if (obj && typeof obj === 'object') captured.push(obj as Record<string, unknown>);
    return (original as (...args: unknown[]) => void)(obj, ...rest);
  }) as typeof ctx.container.logger.info;
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });

securityChecks(() => ctx, { method: 'POST', url: '/api/v1/auth/refresh' });

describe('POST /auth/register', () => {
  it('creates an employee and returns a working token', async () => {
    const department = await createDepartment(ctx.container);
    const res = await post('/auth/register', {
      email: 'New.Person@Example.test',
      password: 'secret123',
      name: 'New Person',
      departmentId: department.id,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toEqual({
      id: expect.any(String),
      email: 'new.person@example.test',
      name: 'New Person',
      role: 'employee',
      departmentId: department.id,
    });
    const me = await ctx.app.inject({
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('new.person@example.test');
  });

  it('refuses a supplied role with 422 naming it, and registers no one', async () => {
    const department = await createDepartment(ctx.container);
    const res = await post('/auth/register', {
      email: 'wants-admin@example.test',
      password: 'secret123',
      name: 'Wants Admin',
      departmentId: department.id,
      role: 'admin',
      roleId: 'whatever',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['body.role', 'body.roleId']);
    expect(await ctx.container.repositories.users.findByEmail('wants-admin@example.test')).toBeNull();
  });

  it('answers 422 ValidationError listing every failing field', async () => {
    const res = await post('/auth/register', { email: 'not-an-email', password: 'short', name: '' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error).toBe('ValidationError');
    expect(body.message).toBe('Request validation failed');
    const fields = body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining(['body.email', 'body.password', 'body.name', 'body.departmentId']),
    );
  });

  it('refuses a password without a digit', async () => {
    const department = await createDepartment(ctx.container);
    const res = await post('/auth/register', {
      email: 'nodigit@example.test',
      password: 'abcdefgh',
      name: 'No Digit',
      departmentId: department.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('body.password');
  });

  it('answers 409 for a taken email, whatever its case', async () => {
    const { user } = await createUser(ctx.container);
    const res = await post('/auth/register', {
      email: user.email.toUpperCase(),
      password: 'secret123',
      name: 'Twin',
      departmentId: user.departmentId,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ConflictError');
  });

  it('answers 422 for an unknown department', async () => {
    const res = await post('/auth/register', {
      email: 'lost@example.test',
      password: 'secret123',
      name: 'Lost',
      departmentId: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'body.departmentId', message: expect.any(String) }]);
  });
});

describe('POST /auth/login', () => {
  it('returns a token and the user for the right password', async () => {
    const { user } = await createUser(ctx.container);
    const res = await post('/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: user.id, role: 'employee', departmentId: user.departmentId });
    expect(typeof res.json().token).toBe('string');
  });

  it('answers 401 for a wrong password, an unknown email and an inactive user alike', async () => {
    const { user } = await createUser(ctx.container);
    const inactive = await createUser(ctx.container, { isActive: false });
    const wrong = await post('/auth/login', { email: user.email, password: 'wrong-pass1' });
    const unknown = await post('/auth/login', { email: 'nobody@example.test', password: TEST_PASSWORD });
    const disabled = await post('/auth/login', { email: inactive.user.email, password: TEST_PASSWORD });
    for (const res of [wrong, unknown, disabled]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: 'UnauthorizedError',
        message: 'Invalid email or password',
        statusCode: 401,
      });
    }
  });
});

describe('POST /auth/refresh', () => {
  it('returns a new token that works', async () => {
    const caller = await createUser(ctx.container);
    const res = await post('/auth/refresh', undefined, caller.headers);
    expect(res.statusCode).toBe(200);
    const me = await ctx.app.inject({
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.statusCode).toBe(200);
  });
});

describe('password reset', () => {
  const lastResetToken = () => {
    const entry = [...captured].reverse().find((e) => typeof e.resetToken === 'string');
    return entry?.resetToken as string | undefined;
  };

  it('answers { ok: true } for an unknown email and issues no token', async () => {
    const before = captured.length;
    const res = await post('/auth/forgot-password', { email: 'ghost@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(captured.slice(before).some((e) => 'resetToken' in e)).toBe(false);
  });

  it('resets with the logged token once, and old tokens stop working', async () => {
    const caller = await createUser(ctx.container);
    expect((await post('/auth/forgot-password', { email: caller.user.email })).json()).toEqual({ ok: true });
    const token = lastResetToken();
    expect(token).toBeDefined();
    const revoked: Revocation[] = [];
    const stop = await onRevocation(ctx.container.bus, (revocation) => revoked.push(revocation));

    const reset = await post('/auth/reset-password', { token, newPassword: 'brand-new-9' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ ok: true });
    // Open sockets of the user are closed on every replica through this revocation.
    await vi.waitFor(() =>
      expect(revoked).toContainEqual({ userId: caller.user.id, reason: 'password-reset' }),
    );
    await stop();

    expect((await ctx.app.inject({ url: '/api/v1/me', headers: caller.headers })).statusCode).toBe(401);
    expect(
      (await post('/auth/login', { email: caller.user.email, password: 'brand-new-9' })).statusCode,
    ).toBe(200);
    expect(
      (await post('/auth/login', { email: caller.user.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(401);

    const again = await post('/auth/reset-password', { token, newPassword: 'another-one-1' });
    expect(again.statusCode).toBe(422);
  });

  it('refuses abcdefgh as a new password', async () => {
    const caller = await createUser(ctx.container);
    await post('/auth/forgot-password', { email: caller.user.email });
    const res = await post('/auth/reset-password', { token: lastResetToken(), newPassword: 'abcdefgh' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    expect(res.json().details[0].field).toBe('body.newPassword');
  });

  it('refuses an unknown token', async () => {
    const res = await post('/auth/reset-password', { token: 'x'.repeat(43), newPassword: 'good-pass-1' });
    expect(res.statusCode).toBe(422);
  });
});
