import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import type { Permission } from '../../core/auth/permissions.js';
import { auditLogs, namespacePlugins } from '../../core/db/schema/index.js';

const ctx = useTestApp();

const MISSING = '00000000-0000-4000-8000-000000000000';
const SECRET = 'a-shared-secret-of-enough-length';
const WEBHOOK = { url: 'https://hooks.example.com/assistant', secret: SECRET };

const call = (
  caller: TestUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: caller.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const head = () => createUser(ctx.container, { role: 'dept_head' });

/** A namespace of the caller's department. */
async function namespaceOf(caller: TestUser) {
  return createNamespace(ctx.container, { departmentId: caller.user.departmentId });
}

/** A namespace of another department, with the webhook installed, as a URL under `suffix`. */
const otherDepartmentUrl = (suffix: string) => async () => {
  const namespace = await createNamespace(ctx.container, {
    departmentId: (await createDepartment(ctx.container)).id,
  });
  await ctx.container.plugins.repositories.plugins.upsert({
    namespaceId: namespace.id,
    pluginId: 'webhook',
    config: WEBHOOK,
    enabled: true,
  });
  return `/api/v1/namespaces/${namespace.id}/plugins${suffix}`;
};

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/plugins' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}/plugins`,
  otherDepartmentUrl: otherDepartmentUrl(''),
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}/plugins/webhook`,
  otherDepartmentUrl: otherDepartmentUrl('/webhook'),
});
securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/namespaces/${MISSING}/plugins/webhook`,
  payload: { config: WEBHOOK },
  otherDepartmentUrl: otherDepartmentUrl('/webhook'),
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/namespaces/${MISSING}/plugins/webhook`,
  payload: { enabled: false },
  otherDepartmentUrl: otherDepartmentUrl('/webhook'),
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/namespaces/${MISSING}/plugins/webhook`,
  otherDepartmentUrl: otherDepartmentUrl('/webhook'),
});

// Either permission is enough: a caller holding neither, or with both revoked, is refused.
const EITHER: Permission[] = ['canManagePlugins', 'canManageNamespaces'];
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}/plugins`,
  permission: EITHER,
  callerUrl: async (_ctx, caller) => `/api/v1/namespaces/${(await namespaceOf(caller)).id}/plugins`,
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}/plugins/glossary`,
  permission: EITHER,
  callerUrl: async (_ctx, caller) => `/api/v1/namespaces/${(await namespaceOf(caller)).id}/plugins/glossary`,
});
securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/namespaces/${MISSING}/plugins/glossary`,
  payload: { config: { terms: [{ term: 'x', action: 'flag' }] } },
  permission: EITHER,
  callerUrl: async (_ctx, caller) => `/api/v1/namespaces/${(await namespaceOf(caller)).id}/plugins/glossary`,
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/namespaces/${MISSING}/plugins/glossary`,
  payload: { enabled: true },
  permission: EITHER,
  callerUrl: async (_ctx, caller) => `/api/v1/namespaces/${(await namespaceOf(caller)).id}/plugins/glossary`,
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/namespaces/${MISSING}/plugins/glossary`,
  permission: EITHER,
  callerUrl: async (_ctx, caller) => `/api/v1/namespaces/${(await namespaceOf(caller)).id}/plugins/glossary`,
});

describe('permissions: canManagePlugins or canManageNamespaces', () => {
  it('lets a user holding only canManagePlugins manage plugins', async () => {
    const caller = await createUser(ctx.container, {
      role: 'employee',
      extraPermissions: ['canManagePlugins'],
    });
    const namespace = await namespaceOf(caller);
    const res = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, {
      config: WEBHOOK,
    });
    expect(res.statusCode).toBe(201);
  });

  it('lets a user holding only canManageNamespaces manage plugins', async () => {
    const caller = await createUser(ctx.container, {
      role: 'dept_head',
      revokedPermissions: ['canManagePlugins'],
    });
    const namespace = await namespaceOf(caller);
    expect((await call(caller, 'GET', `/namespaces/${namespace.id}/plugins`)).statusCode).toBe(200);
  });
});

describe('GET /plugins', () => {
  it('lists the built-in plugins with their hooks and config schemas to any user', async () => {
    const caller = await createUser(ctx.container, { role: 'employee' });
    const res = await call(caller, 'GET', '/plugins');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    const byId = Object.fromEntries(body.items.map((p: { id: string }) => [p.id, p]));
    expect(byId.webhook).toMatchObject({
      source: 'builtin',
      hooks: ['after_delivery'],
      secretFields: ['secret'],
      configSchema: { required: ['url', 'secret'] },
    });
    expect(byId['business-hours']).toMatchObject({ hooks: ['after_confidence_check'], version: '1.0.0' });
    expect(byId.glossary).toMatchObject({ hooks: ['after_confidence_check'], name: 'Glossary' });
  });

  it('pages with limit and offset and refuses a limit over 100', async () => {
    const caller = await createUser(ctx.container);
    const page = (await call(caller, 'GET', '/plugins?limit=1&offset=1')).json();
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.items).toHaveLength(1);
    const res = await call(caller, 'GET', '/plugins?limit=101');
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toContainEqual(expect.objectContaining({ field: 'querystring.limit' }));
  });
});

describe('POST /namespaces/:id/plugins/:pluginId', () => {
  it('installs a plugin (201), never answers its secret, and replaces the config on a second POST (200)', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    const res = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, {
      config: WEBHOOK,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      namespaceId: namespace.id,
      pluginId: 'webhook',
      name: 'Outbound webhook',
      enabled: true,
      registered: true,
      config: { url: WEBHOOK.url, secret: '[set]' },
    });
    expect(res.body).not.toContain(SECRET);

    const again = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, {
      config: { url: 'https://hooks.example.com/other', events: ['approval.decided'] },
      enabled: false,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      enabled: false,
      config: { secret: '[set]', events: ['approval.decided'] },
    });
    const [row] = await ctx.container.db
      .select()
      .from(namespacePlugins)
      .where(and(eq(namespacePlugins.namespaceId, namespace.id), eq(namespacePlugins.pluginId, 'webhook')));
    // The secret left out kept its stored value.
    expect(row!.config).toEqual({
      url: 'https://hooks.example.com/other',
      secret: SECRET,
      events: ['approval.decided'],
    });
  });

  it('keeps the secret out of the audit log', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    expect(
      (await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, { config: WEBHOOK }))
        .statusCode,
    ).toBe(201);
    const [entry] = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, caller.user.id), eq(auditLogs.entityType, 'namespace-plugins')))
      .orderBy(desc(auditLogs.createdAt))
      .limit(1);
    expect(entry).toMatchObject({ action: 'create', entityId: namespace.id });
    expect(JSON.stringify(entry!.changes)).not.toContain(SECRET);
    expect(entry!.changes).toMatchObject({ config: { secret: '[REDACTED]' } });
  });

  it('answers 422 with every field the plugin schema refuses', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    const res = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, {
      config: { url: 'ftp://example.com/x', secret: 'short', extra: 1 },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    const fields = body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining(['body.config.url', 'body.config.secret', 'body.config.extra']),
    );
    expect(res.body).not.toContain('short"');
  });

  it("answers 422 for what only the plugin's own check sees (a time zone Intl does not know)", async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    const res = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/business-hours`, {
      config: { timeZone: 'Mars/Olympus', days: ['mon'], from: '09:00', to: '18:00', outsideHours: 'reply' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'body.config.timeZone', message: 'is not an IANA time zone: Mars/Olympus' },
      { field: 'body.config.message', message: 'is required when outsideHours is reply' },
    ]);
  });

  it('answers 422 when a required config is missing, and for a malformed plugin id or body', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    const missing = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/glossary`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details).toContainEqual({ field: 'body.config.terms', message: 'is required' });
    const badId = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/Not%20An%20Id`, {});
    expect(badId.statusCode).toBe(422);
    expect(badId.json().details).toContainEqual(expect.objectContaining({ field: 'params.pluginId' }));
    const badBody = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/glossary`, {
      config: 'terms',
      enabled: 'yes',
    });
    expect(badBody.statusCode).toBe(422);
  });

  it('answers 404 for an unknown plugin and for a missing namespace', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    const unknown = await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/no-such-plugin`, {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      error: 'NotFoundError',
      message: 'Plugin no-such-plugin not found',
    });
    const noNamespace = await call(caller, 'POST', `/namespaces/${MISSING}/plugins/webhook`, {
      config: WEBHOOK,
    });
    expect(noNamespace.statusCode).toBe(404);
  });
});

describe('GET /namespaces/:id/plugins', () => {
  it("lists the namespace's plugins in installation order, enabled or not, secrets masked", async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, { config: WEBHOOK });
    await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/glossary`, {
      config: { terms: [{ term: 'cheap', replacement: 'affordable', action: 'rewrite' }] },
      enabled: false,
    });
    const res = await call(caller, 'GET', `/namespaces/${namespace.id}/plugins`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(body.items.map((p: { pluginId: string; enabled: boolean }) => [p.pluginId, p.enabled])).toEqual([
      ['webhook', true],
      ['glossary', false],
    ]);
    expect(res.body).not.toContain(SECRET);
  });

  it('answers 404 for a missing namespace and 422 for a malformed id', async () => {
    const caller = await head();
    expect((await call(caller, 'GET', `/namespaces/${MISSING}/plugins`)).statusCode).toBe(404);
    expect((await call(caller, 'GET', '/namespaces/not-a-uuid/plugins')).statusCode).toBe(422);
  });
});

describe('GET /namespaces/:id/plugins/:pluginId', () => {
  it('answers one installation, secrets masked', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, {
      config: WEBHOOK,
      enabled: false,
    });
    const res = await call(caller, 'GET', `/namespaces/${namespace.id}/plugins/webhook`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      pluginId: 'webhook',
      enabled: false,
      registered: true,
      config: { url: WEBHOOK.url, secret: '[set]' },
    });
    expect(res.body).not.toContain(SECRET);
  });

  it('answers 404 for a plugin not installed and a missing namespace, 422 for a malformed plugin id', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    expect((await call(caller, 'GET', `/namespaces/${namespace.id}/plugins/glossary`)).statusCode).toBe(404);
    expect((await call(caller, 'GET', `/namespaces/${MISSING}/plugins/glossary`)).statusCode).toBe(404);
    expect((await call(caller, 'GET', `/namespaces/${namespace.id}/plugins/UPPER`)).statusCode).toBe(422);
  });
});

describe('PATCH /namespaces/:id/plugins/:pluginId', () => {
  it('switches a plugin off and on and replaces its config, keeping a secret sent back as [set]', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, { config: WEBHOOK });
    const off = await call(caller, 'PATCH', `/namespaces/${namespace.id}/plugins/webhook`, {
      enabled: false,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false });
    const changed = await call(caller, 'PATCH', `/namespaces/${namespace.id}/plugins/webhook`, {
      config: { url: 'https://hooks.example.com/v2', secret: '[set]' },
      enabled: true,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      enabled: true,
      config: { url: 'https://hooks.example.com/v2', secret: '[set]' },
    });
    const row = await ctx.container.plugins.repositories.plugins.find(namespace.id, 'webhook');
    expect(row!.config).toEqual({ url: 'https://hooks.example.com/v2', secret: SECRET });
  });

  it('answers 404 for a plugin not installed and an unknown plugin, 422 for a bad config', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    const notInstalled = await call(caller, 'PATCH', `/namespaces/${namespace.id}/plugins/glossary`, {
      enabled: false,
    });
    expect(notInstalled.statusCode).toBe(404);
    expect(notInstalled.json().message).toBe(`Plugin glossary is not installed on namespace ${namespace.id}`);
    expect(
      (await call(caller, 'PATCH', `/namespaces/${namespace.id}/plugins/nothing-here`, { enabled: false }))
        .statusCode,
    ).toBe(404);
    await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/glossary`, {
      config: { terms: [{ term: 'cheap', action: 'flag' }] },
    });
    const bad = await call(caller, 'PATCH', `/namespaces/${namespace.id}/plugins/glossary`, {
      config: { terms: [{ term: 'cheap', action: 'rewrite' }] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([
      { field: 'body.config.terms.0.replacement', message: 'is required when action is rewrite' },
    ]);
  });
});

describe('DELETE /namespaces/:id/plugins/:pluginId', () => {
  it('marks the plugin disabled and keeps its config (204)', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    await call(caller, 'POST', `/namespaces/${namespace.id}/plugins/webhook`, { config: WEBHOOK });
    const res = await call(caller, 'DELETE', `/namespaces/${namespace.id}/plugins/webhook`);
    expect(res.statusCode).toBe(204);
    const row = await ctx.container.plugins.repositories.plugins.find(namespace.id, 'webhook');
    expect(row).toMatchObject({ enabled: false, config: WEBHOOK });
    expect((await call(caller, 'DELETE', `/namespaces/${namespace.id}/plugins/webhook`)).statusCode).toBe(
      204,
    );
  });

  it('answers 404 for a plugin not installed, an unknown plugin and a missing namespace', async () => {
    const caller = await head();
    const namespace = await namespaceOf(caller);
    expect((await call(caller, 'DELETE', `/namespaces/${namespace.id}/plugins/glossary`)).statusCode).toBe(
      404,
    );
    expect((await call(caller, 'DELETE', `/namespaces/${namespace.id}/plugins/unknown-one`)).statusCode).toBe(
      404,
    );
    expect((await call(caller, 'DELETE', `/namespaces/${MISSING}/plugins/glossary`)).statusCode).toBe(404);
  });
});
