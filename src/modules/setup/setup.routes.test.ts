import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment } from '../../../test/factories.js';
import { auditLogs, roles, users } from '../../core/db/schema/index.js';

// A low limit, so the 429 is reachable; every other request comes from its own address.
const ctx = useTestApp({ AUTH_RATE_LIMIT_PER_MIN: '3' });
let nextAddress = 1;
const address = () => `10.9.0.${nextAddress++}`;

const setup = (payload: Record<string, unknown>, remoteAddress = address()) =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/setup', payload, remoteAddress });
const status = async () => (await ctx.app.inject({ method: 'GET', url: '/api/v1/setup' })).json();
const body = (setupCode: string, email = 'first.admin@example.test') => ({
  setupCode,
  email,
  password: 'first-admin-42',
  name: 'First Admin',
});

/** The steps share one database and run in order: the setup can happen only once. */
describe.sequential('the first administrator through /setup', () => {
  it('is needed on an empty database, and still after a channel placeholder employee appears', async () => {
    expect(await status()).toEqual({ needed: true });
    const [role] = await ctx.container.db.select().from(roles).where(eq(roles.slug, 'employee'));
    await ctx.container.repositories.users.insertWithProfile({
      email: 'placeholder-chanb-1@placeholder.local',
      name: 'Telegram sender',
      passwordHash: null,
      role: role!.slug,
      roleId: role!.id,
      departmentId: (await createDepartment(ctx.container)).id,
    });
    expect(await status()).toEqual({ needed: true });
  });

  it('answers 401 for a code no process printed, 422 for a weak password and a bad email', async () => {
    await ctx.container.setup.service.announce();
    const wrong = await setup(body('AAAA-BBBB-CCCC'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('UnauthorizedError');

    const code = (await ctx.container.setup.service.announce())!;
    const weak = await setup({ ...body(code), password: 'password' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error).toBe('ValidationError');
    expect(weak.json().details.map((d: { field: string }) => d.field)).toContain('body.password');
    const badEmail = await setup({ ...body(code), email: 'not-an-email' });
    expect(badEmail.statusCode).toBe(422);
    expect(await status()).toEqual({ needed: true });
  });

  it('is rate limited like login: 429 past AUTH_RATE_LIMIT_PER_MIN a minute from one address', async () => {
    // Windows are whole minutes; start well inside one so the four requests share it.
    const msToNextMinute = 60_000 - (Date.now() % 60_000);
    if (msToNextMinute < 5_000) await sleep(msToNextMinute + 50);
    const from = '10.8.0.1';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await setup(body('WRONG-CODE'), from)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('creates one administrator from two concurrent requests with the codes of two processes, and signs them in', async () => {
    // Two api replicas each printed their own code; both codes are valid until the setup is done.
    const first = (await ctx.container.setup.service.announce())!;
    const second = (await ctx.container.setup.service.announce())!;
    expect(first).not.toBe(second);
    expect(first).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const answers = await Promise.all([
      setup(body(first, 'one@example.test')),
      // Typed in lower case without dashes: still the code.
      setup(body(second.toLowerCase().replaceAll('-', ''), 'two@example.test')),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const created = answers.find((a) => a.statusCode === 201)!.json();
    expect(answers.find((a) => a.statusCode === 409)!.json().error).toBe('ConflictError');
    expect(created.user).toMatchObject({ role: 'admin', name: 'First Admin' });

    const accounts = await ctx.container.db.select().from(users).where(isNotNull(users.passwordHash));
    expect(accounts).toHaveLength(1);
    // The same role, department and permissions as the ADMIN_EMAIL bootstrap gives.
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().effectivePermissions).toContain('canEditSettings');
    expect(me.json().department.name).toBe(ctx.container.config.admin.department);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: address(),
      payload: { email: created.user.email, password: 'first-admin-42' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('is gone afterwards: needed false, 409 for any code, no new code announced', async () => {
    expect(await status()).toEqual({ needed: false });
    const again = await setup(body('AAAA-BBBB-CCCC', 'late@example.test'));
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ConflictError');
    expect(await ctx.container.setup.service.announce()).toBeNull();
  });

  it('audits who was created, never the setup code or the password', async () => {
    const entries = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'setup'), eq(auditLogs.entityType, 'users')));
    expect(entries).toHaveLength(1);
    const text = JSON.stringify(entries[0]);
    expect(text).toContain('First Admin');
    expect(text).not.toMatch(/setupCode|first-admin-42/);
  });
});
