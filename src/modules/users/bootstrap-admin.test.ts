import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { bootstrapAdmin } from './bootstrap-admin.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    ADMIN_EMAIL: 'Boss@Example.test',
    ADMIN_PASSWORD: 'boss-pass-1',
    ADMIN_DEPARTMENT: 'Head Office',
  });
});
afterAll(() => ctx?.close());

it('creates the admin at start, in ADMIN_DEPARTMENT, able to log in with every permission', async () => {
  const login = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: 'boss@example.test', password: 'boss-pass-1' },
  });
  expect(login.statusCode).toBe(200);
  const me = await ctx.app.inject({
    url: '/api/v1/me',
    headers: { authorization: `Bearer ${login.json().token}` },
  });
  expect(me.json()).toMatchObject({
    role: { slug: 'admin' },
    isGlobal: true,
    department: { name: 'Head Office' },
  });
  expect(me.json().effectivePermissions).toHaveLength(19);
});

it('leaves an existing admin alone on the next start', async () => {
  const { container } = ctx;
  const before = await container.repositories.users.findByEmail('boss@example.test');
  await bootstrapAdmin(
    { db: container.db, ...container.repositories, logger: container.logger },
    { email: 'boss@example.test', password: 'another-pass-2', department: 'Elsewhere' },
  );
  const after = await container.repositories.users.findByEmail('boss@example.test');
  expect(after?.passwordHash).toBe(before?.passwordHash);
  expect(await container.repositories.departments.findByName('Elsewhere')).toBeNull();
});
