import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseUrl, testRedis } from '../../../test/database.js';
import {
  createDepartment,
  createRole,
  createUser,
  TEST_PASSWORD,
  type TestUser,
} from '../../../test/factories.js';
import { withDatabase } from '../../../test/global-setup.js';
import { buildApp } from '../../app.js';
import { type Container, createContainer } from '../../container.js';
import { accessStampsOf } from '../../core/auth/access-stamps.js';
import { loadConfig } from '../../core/config/config.js';
import { type DatabaseHandle, openPostgres } from '../../core/db/client.js';
import { passwordResetTokens, users } from '../../core/db/schema/index.js';
import { hashResetToken } from '../auth/auth.service.js';
import { createActorResolver } from './actor-resolver.js';

/**
 * Two API instances on one database (and, with REDIS_URL, one Redis prefix),
 * each with its own actor cache: a change made through instance A must be
 * seen by the very next request on instance B, whose cache already holds
 * the actor. On the embedded drivers both instances share the one PGlite
 * handle, as two containers in one process would.
 */
interface Instance {
  app: FastifyInstance;
  container: Container;
}

let a: Instance;
let b: Instance;
let dataDir: string;
let closeAll: () => Promise<void>;

async function instance(env: Record<string, string>, database: DatabaseHandle): Promise<Instance> {
  const config = loadConfig(env);
  const container = await createContainer(config, { logger: pino({ level: 'silent' }), database });
  const app = await buildApp(container);
  await app.ready();
  return { app, container };
}

/** A second pool on the test file's PostgreSQL database, or the same PGlite handle (closed once, by A). */
function secondHandle(database: DatabaseHandle): DatabaseHandle {
  if (database.driver === 'pglite') return { ...database, close: async () => undefined };
  const name = database.location.slice(database.location.lastIndexOf('/') + 1);
  return openPostgres(withDatabase(testDatabaseUrl()!, name), 5);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'aos-revocation-'));
  const redis = testRedis();
  const env = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    AUTH_RATE_LIMIT_PER_MIN: '10000',
    ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}),
  };
  const database = await createTestDatabase();
  a = await instance(env, database);
  b = await instance(env, secondHandle(database));
  closeAll = async () => {
    for (const { app, container } of [b, a]) {
      await app.close();
      await container.close();
    }
  };
});
afterAll(async () => {
  await closeAll?.();
  rmSync(dataDir, { recursive: true, force: true });
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const api = (on: Instance, method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  on.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const me = (on: Instance, user: Pick<TestUser, 'headers'>) => api(on, 'GET', '/me', user.headers);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A user whose actor instance B has just cached (its first request there succeeded). */
async function cachedOnB(overrides: Parameters<typeof createUser>[1] = {}): Promise<TestUser> {
  const user = await createUser(a.container, overrides);
  expect((await me(b, user)).statusCode).toBe(200);
  return user;
}

describe('revocation across two instances', () => {
  it('uses the deployment’s shared access marks', () => {
    const kind = accessStampsOf(b.container.db).kind;
    expect(kind).toBe(b.container.kv.kind === 'redis' ? 'key-value' : 'memory');
  });

  it('logout-all on A: the old token is refused on B at once', async () => {
    const user = await cachedOnB();
    expect((await api(a, 'POST', '/me/logout-all', user.headers)).statusCode).toBe(200);
    expect((await me(b, user)).statusCode).toBe(401);
  });

  it('password change on A: the old token is refused on B, the new one works there', async () => {
    const user = await cachedOnB();
    const changed = await api(a, 'POST', '/me/change-password', user.headers, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'another-pass-7',
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(b, user)).statusCode).toBe(401);
    expect((await me(b, { headers: bearer(changed.json().token) })).statusCode).toBe(200);
  });

  it('password reset on A: the old token is refused on B', async () => {
    const user = await cachedOnB();
    const token = randomBytes(32).toString('base64url');
    await a.container.db.insert(passwordResetTokens).values({
      userId: user.user.id,
      tokenHash: hashResetToken(token),
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    });
    const reset = await a.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, newPassword: 'reset-pass-8' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(b, user)).statusCode).toBe(401);
  });

  it('deactivation on A: the user is refused on B at once', async () => {
    const admin = await createUser(a.container, { role: 'admin' });
    const user = await cachedOnB();
    expect((await api(a, 'DELETE', `/users/${user.user.id}`, admin.headers)).statusCode).toBe(200);
    expect((await me(b, user)).statusCode).toBe(401);
  });

  it('a role change on A: B answers with the new role and its rights at once', async () => {
    const admin = await createUser(a.container, { role: 'admin' });
    const user = await cachedOnB();
    expect((await api(b, 'GET', '/roles', user.headers)).statusCode).toBe(403);
    const patched = await api(a, 'PATCH', `/users/${user.user.id}`, admin.headers, { role: 'dept_head' });
    expect(patched.statusCode).toBe(200);
    const after = (await me(b, user)).json();
    expect(after.user.role).toBe('dept_head');
    expect(after.effectivePermissions).toContain('canViewRoles');
    expect((await api(b, 'GET', '/roles', user.headers)).statusCode).toBe(200);
  });

  it("an edit of the role's permissions and departments on A: B applies it on the next request", async () => {
    const admin = await createUser(a.container, { role: 'admin' });
    const extra = await createDepartment(a.container);
    const role = await createRole(a.container, { permissions: ['canViewRoles'] });
    const user = await cachedOnB({ role: role.slug });
    expect((await api(b, 'GET', '/roles', user.headers)).statusCode).toBe(200);
    const edited = await api(a, 'PATCH', `/roles/${role.id}`, admin.headers, {
      permissions: ['canViewKnowledge'],
      departmentIds: [extra.id],
    });
    expect(edited.statusCode).toBe(200);
    expect((await api(b, 'GET', '/roles', user.headers)).statusCode).toBe(403);
    const after = (await me(b, user)).json();
    expect(after.effectivePermissions).toEqual(['canViewKnowledge']);
    expect(after.effectiveDepartmentIds).toContain(extra.id);
  });

  it('an override change on A: B applies a revoke, then its removal, on the next request', async () => {
    const admin = await createUser(a.container, { role: 'admin' });
    const user = await cachedOnB({ role: 'dept_head' });
    expect((await api(b, 'GET', '/roles', user.headers)).statusCode).toBe(200);
    const revoked = await api(a, 'POST', `/users/${user.user.id}/permissions/revoke`, admin.headers, {
      permission: 'canViewRoles',
    });
    expect(revoked.statusCode).toBe(200);
    expect((await api(b, 'GET', '/roles', user.headers)).statusCode).toBe(403);
    const removed = await api(
      a,
      'DELETE',
      `/users/${user.user.id}/permissions/revoke/canViewRoles`,
      admin.headers,
    );
    expect(removed.statusCode).toBe(200);
    expect((await api(b, 'GET', '/roles', user.headers)).statusCode).toBe(200);
  });

  it('a profile edit on A (name) shows in GET /me on B at once', async () => {
    const user = await cachedOnB();
    const patched = await api(a, 'PATCH', `/users/${user.user.id}`, user.headers, { name: 'Renamed Person' });
    expect(patched.statusCode).toBe(200);
    expect((await me(b, user)).json().user.name).toBe('Renamed Person');
  });
});

describe('actor cache', () => {
  it('reuses the cached actor while the marks stand, and reloads once one moves', async () => {
    const stamps = accessStampsOf(b.container.db);
    const resolve = createActorResolver(b.container.repositories.users, stamps);
    const { user } = await createUser(a.container);
    const claims = { sub: user.id, tv: user.tokenVersion, iat: 0, exp: 0 };
    const first = await resolve(claims);
    expect(first?.name).toBe(user.name);
    // A write that skips the services moves no mark: the cache is what answers.
    await b.container.db.update(users).set({ name: 'Changed Behind' }).where(eq(users.id, user.id));
    expect(await resolve(claims)).toBe(first);
    await stamps.bumpUser(user.id);
    expect((await resolve(claims))?.name).toBe('Changed Behind');
  });

  it('refuses a token whose tokenVersion is not the current one, cached or not', async () => {
    const resolve = createActorResolver(b.container.repositories.users, accessStampsOf(b.container.db));
    const { user } = await createUser(a.container);
    expect(await resolve({ sub: user.id, tv: user.tokenVersion + 1, iat: 0, exp: 0 })).toBeNull();
    expect(await resolve({ sub: user.id, tv: user.tokenVersion, iat: 0, exp: 0 })).not.toBeNull();
    expect(await resolve({ sub: user.id, tv: user.tokenVersion + 1, iat: 0, exp: 0 })).toBeNull();
  });
});
