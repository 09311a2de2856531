import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { auditLogs, intentTrust } from '../../core/db/schema/index.js';

const ctx = useTestApp();

const MISSING = '00000000-0000-4000-8000-000000000000';

const otherNamespace = async () =>
  createNamespace(ctx.container, { departmentId: (await createDepartment(ctx.container)).id });

/** A namespace whose intent has a first example, hence a trust record. */
const withIntent = async (departmentId: string, intentName = 'greeting') => {
  const namespace = await createNamespace(ctx.container, { departmentId });
  await ctx.container.intents.service.storeExamples(namespace.id, [{ intentName, exampleText: 'hello' }]);
  const trust = await ctx.container.intents.trust.get(namespace.id, intentName);
  return { namespace, trust: trust! };
};

securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/intents/trust?namespaceId=${MISSING}`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/intents/trust?namespaceId=${(await otherNamespace()).id}`,
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/intents/trust/${MISSING}`,
  payload: { samplingRate: 0.2 },
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => {
    const { trust } = await withIntent((await createDepartment(ctx.container)).id);
    return `/api/v1/intents/trust/${trust.id}`;
  },
});

const call = (caller: TestUser, method: 'GET' | 'PATCH', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

const head = () => createUser(ctx.container, { role: 'dept_head' });

describe('GET /intents/trust', () => {
  it('lists one record per intent, created with the defaults by the first example', async () => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    await ctx.container.intents.service.storeExamples(namespace.id, [
      { intentName: 'greeting', exampleText: 'hello' },
      { intentName: 'greeting', exampleText: 'hi' },
      { intentName: 'farewell', exampleText: 'bye' },
    ]);
    await ctx.container.intents.service.storeExamples(namespace.id, [
      { intentName: 'greeting', exampleText: 'hey' },
    ]);
    const res = await call(caller, 'GET', `/intents/trust?namespaceId=${namespace.id}`);
    expect(res.statusCode).toBe(200);
    const defaults = { successfulCount: 0, threshold: 5, isAutonomous: false, samplingRate: 0.1 };
    expect(res.json()).toEqual({
      items: [
        {
          id: expect.any(String),
          namespaceId: namespace.id,
          intentName: 'farewell',
          ...defaults,
          mode: 'count',
          evidence: {
            counted: 0,
            cleanApprovals: 0,
            edits: 0,
            rejections: 0,
            notCounted: 0,
            lowerBound: null,
            neededForPromotion: 5,
          },
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
        expect.objectContaining({ intentName: 'greeting', ...defaults }),
      ],
      total: 2,
      limit: 20,
      offset: 0,
    });
    const page = (
      await call(caller, 'GET', `/intents/trust?namespaceId=${namespace.id}&limit=1&offset=1`)
    ).json();
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1, items: [{ intentName: 'greeting' }] });
  });

  it('answers 422 without a namespace or for a limit over 100, 404 for a missing namespace', async () => {
    const caller = await head();
    const { namespace } = await withIntent(caller.user.departmentId);
    expect((await call(caller, 'GET', '/intents/trust')).statusCode).toBe(422);
    expect(
      (await call(caller, 'GET', `/intents/trust?namespaceId=${namespace.id}&limit=101`)).statusCode,
    ).toBe(422);
    expect((await call(caller, 'GET', `/intents/trust?namespaceId=${MISSING}`)).statusCode).toBe(404);
  });
});

describe('PATCH /intents/trust/:id', () => {
  it('sets the sampling rate and threshold, and audits the change as intent_trust', async () => {
    const caller = await head();
    const { trust } = await withIntent(caller.user.departmentId);
    const res = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, {
      samplingRate: 0.25,
      threshold: 8,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: trust.id, samplingRate: 0.25, threshold: 8, isAutonomous: false });
    const only = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, { samplingRate: 0 });
    expect(only.json()).toMatchObject({ samplingRate: 0, threshold: 8 });
    const edges = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, {
      samplingRate: 1,
      threshold: 1000,
    });
    expect(edges.json()).toMatchObject({ samplingRate: 1, threshold: 1000 });
    const unchanged = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, {});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json()).toMatchObject({ samplingRate: 1, threshold: 1000 });

    const entries = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityType, 'intent_trust'), eq(auditLogs.entityId, trust.id)));
    expect(entries).toHaveLength(4);
    expect(entries[0]).toMatchObject({ action: 'update', userId: caller.user.id });
  });

  it('makes the intent autonomous when the threshold drops to the approvals counted, and never revokes it', async () => {
    const caller = await head();
    const { namespace, trust } = await withIntent(caller.user.departmentId);
    for (let i = 0; i < 3; i++) await ctx.container.intents.trust.recordApproval(namespace.id, 'greeting');
    const lowered = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, { threshold: 3 });
    expect(lowered.json()).toMatchObject({ successfulCount: 3, threshold: 3, isAutonomous: true });
    const raised = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, { threshold: 50 });
    expect(raised.json()).toMatchObject({ successfulCount: 3, threshold: 50, isAutonomous: true });
  });

  it('keeps the intent supervised while the threshold stays above the approvals counted', async () => {
    const caller = await head();
    const { namespace, trust } = await withIntent(caller.user.departmentId);
    await ctx.container.intents.trust.recordApproval(namespace.id, 'greeting');
    const res = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, { threshold: 2 });
    expect(res.json()).toMatchObject({ successfulCount: 1, threshold: 2, isAutonomous: false });
  });

  it.each([
    ['a sampling rate above 1', { samplingRate: 1.01 }, 'body.samplingRate'],
    ['a negative sampling rate', { samplingRate: -0.1 }, 'body.samplingRate'],
    ['a sampling rate that is not a number', { samplingRate: 'half' }, 'body.samplingRate'],
    ['a threshold of 0', { threshold: 0 }, 'body.threshold'],
    ['a threshold above 1000', { threshold: 1001 }, 'body.threshold'],
    ['a fractional threshold', { threshold: 2.5 }, 'body.threshold'],
  ])('answers 422 for %s and changes nothing', async (_label, body, field) => {
    const caller = await head();
    const { trust } = await withIntent(caller.user.departmentId);
    const res = await call(caller, 'PATCH', `/intents/trust/${trust.id}`, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('ValidationError');
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    const [row] = await ctx.container.db.select().from(intentTrust).where(eq(intentTrust.id, trust.id));
    expect(row).toMatchObject({ samplingRate: 0.1, threshold: 5 });
  });

  it('answers 404 for a missing record and 422 for a malformed id', async () => {
    const caller = await head();
    expect((await call(caller, 'PATCH', `/intents/trust/${MISSING}`, { threshold: 2 })).statusCode).toBe(404);
    expect((await call(caller, 'PATCH', '/intents/trust/7', { threshold: 2 })).statusCode).toBe(422);
  });
});

describe('trust for the pipeline', () => {
  it('counts approvals, turns autonomous at the threshold, and creates a missing record', async () => {
    const { namespace } = await withIntent((await createDepartment(ctx.container)).id);
    const { trust } = ctx.container.intents;
    const counts: Array<[number, boolean]> = [];
    for (let i = 0; i < 6; i++) {
      const row = await trust.recordApproval(namespace.id, 'greeting');
      counts.push([row.successfulCount, row.isAutonomous]);
    }
    expect(counts).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, true],
      [6, true],
    ]);
    const created = await trust.recordApproval(namespace.id, 'brand_new');
    expect(created).toMatchObject({
      successfulCount: 1,
      threshold: 5,
      isAutonomous: false,
      samplingRate: 0.1,
    });
    expect(await trust.get(namespace.id, 'nothing_here')).toBeNull();
  });

  it('counts every one of concurrent approvals', async () => {
    const { namespace } = await withIntent((await createDepartment(ctx.container)).id);
    const { trust } = ctx.container.intents;
    await Promise.all(Array.from({ length: 8 }, () => trust.recordApproval(namespace.id, 'greeting')));
    await Promise.all(Array.from({ length: 4 }, () => trust.recordApproval(namespace.id, 'concurrent_new')));
    expect(await trust.get(namespace.id, 'greeting')).toMatchObject({
      successfulCount: 8,
      isAutonomous: true,
    });
    expect(await trust.get(namespace.id, 'concurrent_new')).toMatchObject({ successfulCount: 4 });
  });

  it('joins the caller’s transaction and rolls back with it', async () => {
    const { namespace } = await withIntent((await createDepartment(ctx.container)).id);
    const { trust } = ctx.container.intents;
    await expect(
      ctx.container.db.transaction(async (tx) => {
        const row = await trust.recordApproval(namespace.id, 'greeting', tx);
        expect(row.successfulCount).toBe(1);
        expect((await trust.get(namespace.id, 'greeting', tx))?.successfulCount).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await trust.get(namespace.id, 'greeting'))?.successfulCount).toBe(0);
  });
});
