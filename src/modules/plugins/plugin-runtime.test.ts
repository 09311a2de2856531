import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser } from '../../../test/factories.js';
import { namespacePlugins } from '../../core/db/schema/index.js';
import { createPluginRuntime, pluginMarksFor } from './plugin-runtime.js';

const ctx = useTestApp();
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Another replica's runtime: its own cache, the same database and key-value store. */
function otherReplica() {
  const { container } = ctx;
  return createPluginRuntime({
    registry: container.plugins.registry,
    repository: container.plugins.repositories.plugins,
    marks: pluginMarksFor(container.db, container.database.driver, container.kv),
    logger,
  });
}

async function namespaceWithGlossary() {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  const admin = await createUser(ctx.container, { role: 'admin', departmentId: department.id });
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/namespaces/${namespace.id}/plugins/glossary`,
    headers: admin.headers,
    payload: { config: { terms: [{ term: 'cheap', action: 'flag' }] } },
  });
  expect(res.statusCode).toBe(201);
  return { namespace, admin };
}

describe('plugin runtime cache', () => {
  it("keeps a namespace's plugins after the first read: a change that skips the service is not seen", async () => {
    const { namespace } = await namespaceWithGlossary();
    const runtime = ctx.container.plugins.runtime;
    expect((await runtime.enabledFor(namespace.id)).map((p) => p.definition.id)).toEqual(['glossary']);
    await ctx.container.db.delete(namespacePlugins).where(eq(namespacePlugins.namespaceId, namespace.id));
    const marks = pluginMarksFor(ctx.container.db, ctx.container.database.driver, ctx.container.kv);
    // Cached where marks exist (embedded database, Redis); read every time where they do not.
    expect((await runtime.enabledFor(namespace.id)).length).toBe(marks.kind === 'none' ? 0 : 1);
  });

  it('a DELETE through one replica is seen by the next read of another', async () => {
    const { namespace, admin } = await namespaceWithGlossary();
    const replica = otherReplica();
    expect((await replica.enabledFor(namespace.id)).map((p) => p.definition.id)).toEqual(['glossary']);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/namespaces/${namespace.id}/plugins/glossary`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(await replica.enabledFor(namespace.id)).toEqual([]);
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/namespaces/${namespace.id}/plugins/glossary`,
      headers: admin.headers,
      payload: { enabled: true },
    });
    expect(patched.statusCode).toBe(200);
    expect((await replica.enabledFor(namespace.id)).map((p) => p.definition.id)).toEqual(['glossary']);
  });
});
