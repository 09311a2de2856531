import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { auditLogs, intentExamples, intentTrust } from '../../core/db/schema/index.js';
import { createLocalEmbedder } from '../../core/llm/local-embedder.js';

const ctx = useTestApp();

const MISSING = '00000000-0000-4000-8000-000000000000';

const otherNamespace = async () =>
  createNamespace(ctx.container, { departmentId: (await createDepartment(ctx.container)).id });

/** An example stored through the service's own path, in `namespaceId`. */
const storeExample = async (namespaceId: string, intentName: string, exampleText: string) => {
  const [row] = await ctx.container.intents.service.storeExamples(namespaceId, [{ intentName, exampleText }]);
  return row!;
};

securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/intents?namespaceId=${MISSING}`,
  otherDepartmentUrl: async () => `/api/v1/intents?namespaceId=${(await otherNamespace()).id}`,
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/intents/examples?namespaceId=${MISSING}`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/intents/examples?namespaceId=${(await otherNamespace()).id}`,
});
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/intents/examples',
  payload: { namespaceId: MISSING, intentName: 'greeting', exampleText: 'hello there' },
  permission: 'canManageNamespaces',
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/intents/examples/${MISSING}`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => {
    const example = await storeExample((await otherNamespace()).id, 'greeting', 'hello from elsewhere');
    return `/api/v1/intents/examples/${example.id}`;
  },
});
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/intents/classify',
  payload: { namespaceId: MISSING, text: 'hello there' },
});

const call = (caller: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

/** A department head (canManageNamespaces) with a namespace of their department. */
const manager = async () => {
  const caller = await createUser(ctx.container, { role: 'dept_head' });
  const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
  return { caller, namespace };
};

const examplesIn = (namespaceId: string) =>
  ctx.container.db.select().from(intentExamples).where(eq(intentExamples.namespaceId, namespaceId));

describe('POST /intents/examples', () => {
  it('stores the phrase with its embedding and creates the intent’s trust record with the defaults', async () => {
    const { caller, namespace } = await manager();
    const res = await call(caller, 'POST', '/intents/examples', {
      namespaceId: namespace.id,
      intentName: '  Vacation_Request ',
      exampleText: '  I want to take a vacation next month ',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      namespaceId: namespace.id,
      intentName: 'Vacation_Request',
      exampleText: 'I want to take a vacation next month',
      createdAt: expect.any(String),
    });
    const [row] = await examplesIn(namespace.id);
    const expected = createLocalEmbedder(ctx.container.config.embeddingDimensions).embedOne(
      'I want to take a vacation next month',
    );
    expect(row!.embedding).toHaveLength(expected.length);
    expect(row!.embedding!.reduce((sum, v, i) => sum + v * expected[i]!, 0)).toBeCloseTo(1, 4);

    const trust = await ctx.container.db
      .select()
      .from(intentTrust)
      .where(eq(intentTrust.namespaceId, namespace.id));
    expect(trust).toEqual([
      expect.objectContaining({
        intentName: 'Vacation_Request',
        successfulCount: 0,
        threshold: 5,
        isAutonomous: false,
        samplingRate: 0.1,
      }),
    ]);
    const [audit] = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityType, 'intent_examples'), eq(auditLogs.entityId, body.id)));
    expect(audit).toMatchObject({ action: 'create', userId: caller.user.id });
  });

  it('accepts the phrase as `phrase`, and both names when they carry the same text', async () => {
    const { caller, namespace } = await manager();
    const viaPhrase = await call(caller, 'POST', '/intents/examples', {
      namespaceId: namespace.id,
      intentName: 'greeting',
      phrase: 'good morning everyone',
    });
    expect(viaPhrase.statusCode).toBe(201);
    expect(viaPhrase.json().exampleText).toBe('good morning everyone');
    const both = await call(caller, 'POST', '/intents/examples', {
      namespaceId: namespace.id,
      intentName: 'greeting',
      exampleText: 'hello team',
      phrase: ' hello team',
    });
    expect(both.statusCode).toBe(201);
    expect((await examplesIn(namespace.id)).map((r) => r.exampleText).sort()).toEqual([
      'good morning everyone',
      'hello team',
    ]);
  });

  it('stores a repeated phrase once: the same intent answers the stored example with 200', async () => {
    const { caller, namespace } = await manager();
    const payload = { namespaceId: namespace.id, intentName: 'greeting', exampleText: 'hi there' };
    const first = await call(caller, 'POST', '/intents/examples', payload);
    expect(first.statusCode).toBe(201);
    const again = await call(caller, 'POST', '/intents/examples', { ...payload, exampleText: ' hi there  ' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const asPhrase = await call(caller, 'POST', '/intents/examples', {
      namespaceId: namespace.id,
      intentName: 'greeting',
      phrase: 'hi there',
    });
    expect(asPhrase.statusCode).toBe(200);
    expect(await examplesIn(namespace.id)).toHaveLength(1);
  });

  it('keeps phrases apart per namespace and treats a different case as another phrase', async () => {
    const { caller, namespace } = await manager();
    const second = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    for (const [ns, text] of [
      [namespace.id, 'hi there'],
      [second.id, 'hi there'],
      [namespace.id, 'Hi there'],
    ] as const) {
      const res = await call(caller, 'POST', '/intents/examples', {
        namespaceId: ns,
        intentName: 'greeting',
        exampleText: text,
      });
      expect(res.statusCode).toBe(201);
    }
    expect(await examplesIn(namespace.id)).toHaveLength(2);
    expect(await examplesIn(second.id)).toHaveLength(1);
  });

  it('answers 409 for a phrase already stored for another intent, and stores nothing', async () => {
    const { caller, namespace } = await manager();
    await storeExample(namespace.id, 'greeting', 'hello');
    const res = await call(caller, 'POST', '/intents/examples', {
      namespaceId: namespace.id,
      intentName: 'farewell',
      exampleText: 'hello',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error: 'ConflictError',
      message: expect.stringContaining('greeting'),
    });
    expect((await examplesIn(namespace.id)).map((r) => r.intentName)).toEqual(['greeting']);
    const trust = await ctx.container.intents.trust.get(namespace.id, 'farewell');
    expect(trust).toBeNull();
  });

  it.each([
    ['no phrase at all', { intentName: 'a' }, 'body.exampleText'],
    ['a blank phrase', { intentName: 'a', exampleText: '   ' }, 'body.exampleText'],
    ['a blank `phrase`', { intentName: 'a', phrase: '  ' }, 'body.phrase'],
    ['two different phrases', { intentName: 'a', exampleText: 'one', phrase: 'two' }, 'body.phrase'],
    [
      'a phrase over 2000 characters after trimming',
      { intentName: 'a', exampleText: 'x'.repeat(2001) },
      'body.exampleText',
    ],
    ['a phrase far over the limit', { intentName: 'a', exampleText: 'x'.repeat(5000) }, 'body.exampleText'],
    ['a blank intent name', { intentName: '   ', exampleText: 'x' }, 'body.intentName'],
    ['an empty intent name', { intentName: '', exampleText: 'x' }, 'body.intentName'],
    [
      'an intent name over 100 characters',
      { intentName: 'n'.repeat(101), exampleText: 'x' },
      'body.intentName',
    ],
    ['the reserved intent name', { intentName: ' Unknown ', exampleText: 'x' }, 'body.intentName'],
  ])('answers 422 for %s and stores nothing', async (_label, fields, field) => {
    const { caller, namespace } = await manager();
    const res = await call(caller, 'POST', '/intents/examples', { namespaceId: namespace.id, ...fields });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    expect(JSON.stringify(res.json().details)).toContain(field);
    expect(await examplesIn(namespace.id)).toEqual([]);
  });

  it('answers 422 for a malformed namespace id, 404 for a missing or another department’s namespace', async () => {
    const { caller } = await manager();
    const body = { intentName: 'a', exampleText: 'x' };
    expect(
      (await call(caller, 'POST', '/intents/examples', { ...body, namespaceId: 'nope' })).statusCode,
    ).toBe(422);
    expect(
      (await call(caller, 'POST', '/intents/examples', { ...body, namespaceId: MISSING })).statusCode,
    ).toBe(404);
    const foreign = await otherNamespace();
    const res = await call(caller, 'POST', '/intents/examples', { ...body, namespaceId: foreign.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('NotFoundError');
    expect(await examplesIn(foreign.id)).toEqual([]);
  });

  it('answers 403 to an employee of the namespace’s department', async () => {
    const { namespace } = await manager();
    const employee = await createUser(ctx.container, { departmentId: namespace.departmentId });
    const res = await call(employee, 'POST', '/intents/examples', {
      namespaceId: namespace.id,
      intentName: 'a',
      exampleText: 'x',
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /intents/examples', () => {
  it('lists a namespace’s examples newest first, by intent, with paging', async () => {
    const { caller, namespace } = await manager();
    await storeExample(namespace.id, 'greeting', 'hello');
    await storeExample(namespace.id, 'greeting', 'good morning');
    await storeExample(namespace.id, 'farewell', 'goodbye');
    await storeExample((await otherNamespace()).id, 'greeting', 'hello');

    const all = (await call(caller, 'GET', `/intents/examples?namespaceId=${namespace.id}`)).json();
    expect(all).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(all.items.map((e: { exampleText: string }) => e.exampleText)).toEqual([
      'goodbye',
      'good morning',
      'hello',
    ]);
    const page = (
      await call(
        caller,
        'GET',
        `/intents/examples?namespaceId=${namespace.id}&intentName=greeting&limit=1&offset=1`,
      )
    ).json();
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.items.map((e: { exampleText: string }) => e.exampleText)).toEqual(['hello']);
  });

  it('answers 422 without a namespace, for a limit over 100, 404 for a missing namespace', async () => {
    const { caller, namespace } = await manager();
    expect((await call(caller, 'GET', '/intents/examples')).statusCode).toBe(422);
    expect(
      (await call(caller, 'GET', `/intents/examples?namespaceId=${namespace.id}&limit=101`)).statusCode,
    ).toBe(422);
    expect((await call(caller, 'GET', `/intents/examples?namespaceId=${MISSING}`)).statusCode).toBe(404);
  });
});

describe('DELETE /intents/examples/:id', () => {
  it('deletes the example and keeps the intent’s trust record', async () => {
    const { caller, namespace } = await manager();
    const example = await storeExample(namespace.id, 'greeting', 'hello');
    const res = await call(caller, 'DELETE', `/intents/examples/${example.id}`);
    expect(res.statusCode).toBe(204);
    expect(await examplesIn(namespace.id)).toEqual([]);
    expect(await ctx.container.intents.trust.get(namespace.id, 'greeting')).not.toBeNull();
    expect((await call(caller, 'DELETE', `/intents/examples/${example.id}`)).statusCode).toBe(404);
  });

  it('answers 422 for a malformed id', async () => {
    const { caller } = await manager();
    expect((await call(caller, 'DELETE', '/intents/examples/42')).statusCode).toBe(422);
  });
});

describe('GET /intents', () => {
  it('lists intent names with their example counts to any user of the department', async () => {
    const { namespace } = await manager();
    await ctx.container.intents.service.storeExamples(namespace.id, [
      { intentName: 'greeting', exampleText: 'hello' },
      { intentName: 'greeting', exampleText: 'hi' },
      { intentName: 'Farewell', exampleText: 'bye' },
      { intentName: 'thanks', exampleText: 'thank you' },
    ]);
    const employee = await createUser(ctx.container, { departmentId: namespace.departmentId });
    const res = await call(employee, 'GET', `/intents?namespaceId=${namespace.id}`);
    expect(res.statusCode).toBe(200);
    const names = res.json().items.map((i: { intentName: string }) => i.intentName);
    expect(names).toEqual([...names].sort());
    expect(res.json()).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(res.json().items).toContainEqual({ intentName: 'greeting', exampleCount: 2 });
    expect(res.json().items).toContainEqual({ intentName: 'Farewell', exampleCount: 1 });
    const page = (
      await call(employee, 'GET', `/intents?namespaceId=${namespace.id}&limit=2&offset=2`)
    ).json();
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(page.items).toHaveLength(1);
  });

  it('answers an empty list for a namespace without examples, 422 without a namespace or for limit 0', async () => {
    const { caller, namespace } = await manager();
    expect((await call(caller, 'GET', `/intents?namespaceId=${namespace.id}`)).json()).toEqual({
      items: [],
      total: 0,
      limit: 20,
      offset: 0,
    });
    expect((await call(caller, 'GET', '/intents')).statusCode).toBe(422);
    expect((await call(caller, 'GET', `/intents?namespaceId=${namespace.id}&limit=0`)).statusCode).toBe(422);
  });
});

describe('POST /intents/classify', () => {
  const VACATION = [
    'I want to take a vacation next month',
    'How do I request vacation days',
    'Can I book my vacation for August',
    'Хочу піти у відпустку наступного місяця',
  ];
  const PASSWORD = [
    'I forgot my password',
    'Please reset my email password',
    'My password expired and I cannot log in',
    'Забув пароль і не можу увійти',
  ];

  const seeded = async () => {
    const { namespace } = await manager();
    await ctx.container.intents.service.storeExamples(namespace.id, [
      ...VACATION.map((exampleText) => ({ intentName: 'vacation', exampleText })),
      ...PASSWORD.map((exampleText) => ({ intentName: 'password', exampleText })),
    ]);
    const employee = await createUser(ctx.container, { departmentId: namespace.departmentId });
    const classify = (text: string) =>
      call(employee, 'POST', '/intents/classify', { namespaceId: namespace.id, text });
    return { namespace, classify };
  };

  it.each([
    ['I want to book a vacation in July', 'vacation'],
    ['Хочу піти у відпустку в липні', 'vacation'],
    ['I forgot my email password', 'password'],
    ['Забув пароль, не можу увійти в пошту', 'password'],
  ])('classifies the paraphrase "%s" as %s', async (text, intent) => {
    const { classify } = await seeded();
    const res = await classify(text);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.intent).toBe(intent);
    expect(body.confidence).toBeGreaterThanOrEqual(0.5);
    expect(body.confidence).toBeLessThanOrEqual(1);
    for (const alternative of body.alternatives) {
      expect(alternative.intent).not.toBe(intent);
      expect(alternative.confidence).toBeLessThanOrEqual(body.confidence);
    }
  });

  it('answers an exact example with confidence close to 1', async () => {
    const { classify } = await seeded();
    const body = (await classify('I forgot my password')).json();
    expect(body.intent).toBe('password');
    expect(body.confidence).toBeGreaterThan(0.9);
  });

  it('answers unknown for unrelated text, with the best candidate among the alternatives', async () => {
    const { classify } = await seeded();
    const body = (await classify('What is the weather in Paris tomorrow?')).json();
    expect(body.intent).toBe('unknown');
    expect(body.confidence).toBeLessThan(0.5);
    expect(body.alternatives.length).toBeGreaterThan(0);
    expect(body.alternatives[0].confidence).toBe(body.confidence);
  });

  it('answers unknown with confidence 0 for a namespace without examples or a text without words', async () => {
    const { caller, namespace } = await manager();
    const empty = await call(caller, 'POST', '/intents/classify', {
      namespaceId: namespace.id,
      text: 'hello',
    });
    expect(empty.json()).toEqual({ intent: 'unknown', confidence: 0, alternatives: [] });
    const { classify } = await seeded();
    expect((await classify('?!  ...')).json()).toEqual({
      intent: 'unknown',
      confidence: 0,
      alternatives: [],
    });
  });

  it('leaves no audit entry', async () => {
    const { classify, namespace } = await seeded();
    expect((await classify('I forgot my password')).statusCode).toBe(200);
    const entries = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(sql`${auditLogs.entityType} = 'intents' OR ${auditLogs.entityId} = ${namespace.id}`);
    expect(entries).toEqual([]);
  });

  it('answers 404 for another department’s namespace and 422 for an empty or over-long text', async () => {
    const { classify } = await seeded();
    const caller = await createUser(ctx.container);
    const foreign = await otherNamespace();
    const res = await call(caller, 'POST', '/intents/classify', { namespaceId: foreign.id, text: 'hello' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('NotFoundError');
    expect((await classify('')).statusCode).toBe(422);
    expect((await classify('x'.repeat(4001))).statusCode).toBe(422);
    expect((await call(caller, 'POST', '/intents/classify', { text: 'hello' })).statusCode).toBe(422);
  });
});
