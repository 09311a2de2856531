import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  createDepartment,
  createKnowledgeBase,
  createNamespace,
  createUser,
  type TestUser,
} from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { departments, namespaces } from '../../core/db/schema/index.js';
import { AGENT_ADAPTERS } from './agent-adapters.js';

const ctx = useTestApp();

const MISSING = '00000000-0000-4000-8000-000000000000';

const otherNamespaceUrl = async () => {
  const namespace = await createNamespace(ctx.container, {
    departmentId: (await createDepartment(ctx.container)).id,
  });
  return `/api/v1/namespaces/${namespace.id}`;
};

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/namespaces' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}`,
  otherDepartmentUrl: otherNamespaceUrl,
});
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/namespaces',
  payload: { name: 'Assistant', departmentId: MISSING },
  permission: 'canManageNamespaces',
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/namespaces/${MISSING}`,
  payload: { name: 'Renamed' },
  permission: 'canManageNamespaces',
  otherDepartmentUrl: otherNamespaceUrl,
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/namespaces/${MISSING}`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: otherNamespaceUrl,
});

const call = (caller: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

const head = () => createUser(ctx.container, { role: 'dept_head' });

describe('POST /namespaces', () => {
  it('creates a namespace with a validated persona and config', async () => {
    const caller = await head();
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'POST', '/namespaces', {
      name: 'HR assistant',
      departmentId: caller.user.departmentId,
      systemPrompt: 'You answer HR questions.',
      persona: {
        language: 'uk',
        style: { formality: 0.8, tone: 'warm' },
        boundaries: ['salary negotiations', 'legal advice'],
        escalateToRole: 'approver',
      },
      config: { agentRunner: { activeAdapter: 'api' }, knowledgeBaseIds: [base.id] },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      id: expect.any(String),
      name: 'HR assistant',
      departmentId: caller.user.departmentId,
      systemPrompt: 'You answer HR questions.',
      persona: { language: 'uk', style: { formality: 0.8 }, escalateToRole: 'approver' },
      config: { agentRunner: { activeAdapter: 'api' }, knowledgeBaseIds: [base.id] },
    });
    expect((await call(caller, 'GET', `/namespaces/${body.id}`)).json()).toEqual(body);
  });

  it('answers 403 for a department outside the caller’s', async () => {
    const caller = await head();
    const other = await createDepartment(ctx.container);
    const res = await call(caller, 'POST', '/namespaces', { name: 'X', departmentId: other.id });
    expect(res.statusCode).toBe(403);
    expect(
      await ctx.container.db.select().from(namespaces).where(eq(namespaces.departmentId, other.id)),
    ).toEqual([]);
  });

  it.each([
    ['formality above 1', { persona: { style: { formality: 1.5 } } }, 'body.persona.style.formality'],
    ['formality below 0', { persona: { style: { formality: -0.1 } } }, 'body.persona.style.formality'],
    ['boundaries that are not strings', { persona: { boundaries: [42] } }, 'body.persona.boundaries.0'],
    ['a malformed language tag', { persona: { language: 'ukrainian language' } }, 'body.persona.language'],
    [
      'an unknown adapter',
      { config: { agentRunner: { activeAdapter: 'telepathy' } } },
      'body.config.agentRunner.activeAdapter',
    ],
    ['an over-long system prompt', { systemPrompt: 'x'.repeat(20_001) }, 'body.systemPrompt'],
  ])('answers 422 for %s', async (_label, change, field) => {
    const caller = await head();
    const res = await call(caller, 'POST', '/namespaces', {
      name: 'X',
      departmentId: caller.user.departmentId,
      ...change,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('answers 422 for an unknown escalation role, another department’s knowledge base or a missing department', async () => {
    const caller = await head();
    const foreign = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    const res = await call(caller, 'POST', '/namespaces', {
      name: 'X',
      departmentId: caller.user.departmentId,
      persona: { escalateToRole: 'no-such-role' },
      config: { knowledgeBaseIds: [foreign.id, MISSING] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual([
      'body.persona.escalateToRole',
      'body.config.knowledgeBaseIds.0',
      'body.config.knowledgeBaseIds.1',
    ]);
    const admin = await createUser(ctx.container, { role: 'admin' });
    const missing = await call(admin, 'POST', '/namespaces', { name: 'X', departmentId: MISSING });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details[0].field).toBe('body.departmentId');
  });

  it('offers every adapter of the exported list', async () => {
    const caller = await head();
    for (const adapter of AGENT_ADAPTERS) {
      const res = await call(caller, 'POST', '/namespaces', {
        name: adapter,
        departmentId: caller.user.departmentId,
        config: { agentRunner: { activeAdapter: adapter } },
      });
      expect(res.statusCode).toBe(201);
    }
  });
});

describe('GET /namespaces', () => {
  it('lists the caller’s departments only, with a department filter and paging', async () => {
    const other = await createDepartment(ctx.container);
    const caller = await createUser(ctx.container, { extraDepartmentIds: [other.id] });
    const own = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    const inOther = await createNamespace(ctx.container, { departmentId: other.id });
    const hidden = await createNamespace(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });

    const all = (await call(caller, 'GET', '/namespaces')).json();
    expect(all.total).toBe(2);
    expect(all.items.map((n: { id: string }) => n.id).sort()).toEqual([own.id, inOther.id].sort());
    expect(all.items.map((n: { id: string }) => n.id)).not.toContain(hidden.id);
    const filtered = (await call(caller, 'GET', `/namespaces?departmentId=${other.id}&limit=1`)).json();
    expect(filtered).toMatchObject({ total: 1, limit: 1, offset: 0 });
    expect(filtered.items[0].id).toBe(inOther.id);
  });

  it('answers 403 for a department filter outside and 422 for a limit over 100', async () => {
    const caller = await createUser(ctx.container);
    const outside = await createDepartment(ctx.container);
    expect((await call(caller, 'GET', `/namespaces?departmentId=${outside.id}`)).statusCode).toBe(403);
    expect((await call(caller, 'GET', '/namespaces?limit=101')).statusCode).toBe(422);
  });
});

describe('GET /namespaces/:id', () => {
  it('answers 404 for a missing namespace and 422 for a malformed id', async () => {
    const caller = await createUser(ctx.container);
    expect((await call(caller, 'GET', `/namespaces/${MISSING}`)).statusCode).toBe(404);
    expect((await call(caller, 'GET', '/namespaces/123')).statusCode).toBe(422);
  });
});

describe('PATCH /namespaces/:id', () => {
  it('replaces persona and config and clears the system prompt', async () => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, {
      departmentId: caller.user.departmentId,
      systemPrompt: 'old',
      config: { agentRunner: { activeAdapter: 'api' } },
    });
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'PATCH', `/namespaces/${namespace.id}`, {
      name: 'Renamed',
      systemPrompt: null,
      persona: { language: 'ru', style: { formality: 0 } },
      config: { knowledgeBaseIds: [base.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      systemPrompt: null,
      persona: { language: 'ru', style: { formality: 0 } },
      config: { knowledgeBaseIds: [base.id] },
    });
  });

  it('answers 422 for a knowledge base of another department and changes nothing', async () => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, {
      departmentId: caller.user.departmentId,
      name: 'Keep',
    });
    const foreign = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    const res = await call(caller, 'PATCH', `/namespaces/${namespace.id}`, {
      name: 'Changed',
      config: { knowledgeBaseIds: [foreign.id] },
    });
    expect(res.statusCode).toBe(422);
    expect((await call(caller, 'GET', `/namespaces/${namespace.id}`)).json().name).toBe('Keep');
  });

  it('answers 404 for a missing namespace', async () => {
    const caller = await head();
    expect((await call(caller, 'PATCH', `/namespaces/${MISSING}`, { name: 'X' })).statusCode).toBe(404);
  });
});

describe('DELETE /namespaces/:id', () => {
  it('deletes the namespace and clears it as the department default', async () => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    await ctx.container.db
      .update(departments)
      .set({ settings: { defaultNamespaceId: namespace.id, color: 'x' } })
      .where(eq(departments.id, caller.user.departmentId));
    const res = await call(caller, 'DELETE', `/namespaces/${namespace.id}`);
    expect(res.statusCode).toBe(204);
    expect((await call(caller, 'GET', `/namespaces/${namespace.id}`)).statusCode).toBe(404);
    const [department] = await ctx.container.db
      .select()
      .from(departments)
      .where(eq(departments.id, caller.user.departmentId));
    expect(department!.settings).toEqual({ color: 'x' });
  });

  it('answers 404 for a missing namespace', async () => {
    const caller = await head();
    expect((await call(caller, 'DELETE', `/namespaces/${MISSING}`)).statusCode).toBe(404);
  });
});
