import { count } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  createDepartment,
  createKnowledgeFixture,
  createNamespace,
  createUser,
  type TestUser,
} from '../../../test/factories.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { securityChecks } from '../../../test/security.js';
import {
  agentRuns,
  agentTasks,
  approvals,
  auditLogs,
  conversations,
  intentInteractions,
  intentTrust,
  messages,
  notifications,
  retrievalHits,
} from '../../core/db/schema/index.js';
import { EVAL_QUESTION_MAX_CHARS } from './evaluation.schemas.js';

const ctx = useTestApp({}, { workers: true });
const MISSING = '00000000-0000-4000-8000-000000000000';

/** A namespace in a department the caller of the 404 checks does not belong to. */
async function otherNamespace() {
  const department = await createDepartment(ctx.container);
  return createNamespace(ctx.container, { departmentId: department.id });
}

securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/namespaces/${MISSING}/eval-cases`,
  payload: { question: 'How many days of leave?' },
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/namespaces/${(await otherNamespace()).id}/eval-cases`,
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}/eval-cases`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/namespaces/${(await otherNamespace()).id}/eval-cases`,
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/namespaces/${MISSING}/eval-cases/${MISSING}`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => {
    const namespace = await otherNamespace();
    const evalCase = await ctx.container.evaluation.repositories.evaluation.insertCase({
      namespaceId: namespace.id,
      question: 'A question of another department',
    });
    return `/api/v1/namespaces/${namespace.id}/eval-cases/${evalCase.id}`;
  },
});
securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/namespaces/${MISSING}/eval-runs`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/namespaces/${(await otherNamespace()).id}/eval-runs`,
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}/eval-runs`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/namespaces/${(await otherNamespace()).id}/eval-runs`,
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/namespaces/${MISSING}/eval-runs/${MISSING}`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => {
    const namespace = await otherNamespace();
    const run = await ctx.container.evaluation.repositories.evaluation.insertRun({
      namespaceId: namespace.id,
      requestedBy: null,
      caseCount: 0,
    });
    // Finished, so that nothing picks it up.
    await ctx.container.evaluation.repositories.evaluation.fail(run.id, 'test row');
    return `/api/v1/namespaces/${namespace.id}/eval-runs/${run.id}`;
  },
});

const call = (caller: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

const VACATION = 'Employees receive twenty four days of paid vacation every calendar year.';
const EXPENSES = 'Travel expenses are reimbursed within thirty days after the trip ends.';

/** A department with a dept_head, two documents in one knowledge base and a namespace searching it. */
async function scene() {
  const department = await createDepartment(ctx.container);
  const caller = await createUser(ctx.container, { role: 'dept_head', departmentId: department.id });
  const knowledge = await createKnowledgeFixture(ctx.container, {
    departmentId: department.id,
    documents: [
      { title: 'Vacation policy', chunks: [VACATION] },
      { title: 'Expense policy', chunks: [EXPENSES] },
    ],
  });
  const namespace = await createNamespace(ctx.container, {
    departmentId: department.id,
    config: { knowledgeBaseIds: [knowledge.knowledgeBase.id] },
  });
  const [vacation, expenses] = knowledge.documents.map((d) => d.document);
  return { department, caller, namespace, knowledge, vacation: vacation!, expenses: expenses! };
}

type RunBody = {
  id: string;
  status: string;
  error: string | null;
  caseCount: number;
  processed: number;
  totals: Record<string, number | null> | null;
  results: Array<Record<string, unknown>>;
};

async function finishedRun(caller: TestUser, namespaceId: string, runId: string): Promise<RunBody> {
  return waitFor(`evaluation run ${runId} to finish`, async () => {
    const res = await call(caller, 'GET', `/namespaces/${namespaceId}/eval-runs/${runId}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as RunBody;
    return body.status === 'completed' || body.status === 'failed' ? body : null;
  });
}

describe('eval cases', () => {
  it('adds, lists (paged, oldest first) and deletes a namespace’s cases', async () => {
    const { caller, namespace, vacation } = await scene();
    const created = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-cases`, {
      question: 'How many vacation days do I get?',
      expectedAnswer: 'twenty four days',
      expectedDocumentId: vacation.id,
      expectedIntent: 'vacation',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(String),
      namespaceId: namespace.id,
      question: 'How many vacation days do I get?',
      expectedAnswer: 'twenty four days',
      expectedDocumentId: vacation.id,
      expectedIntent: 'vacation',
      createdBy: caller.user.id,
      createdAt: expect.any(String),
    });
    for (const question of ['Second?', 'Third?']) {
      expect(
        (await call(caller, 'POST', `/namespaces/${namespace.id}/eval-cases`, { question })).statusCode,
      ).toBe(201);
    }
    const page = await call(caller, 'GET', `/namespaces/${namespace.id}/eval-cases?limit=2&offset=1`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.json().items.map((c: { question: string }) => c.question)).toEqual(['Second?', 'Third?']);

    const id = created.json().id;
    expect((await call(caller, 'DELETE', `/namespaces/${namespace.id}/eval-cases/${id}`)).statusCode).toBe(
      204,
    );
    const again = await call(caller, 'DELETE', `/namespaces/${namespace.id}/eval-cases/${id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe('NotFoundError');
    expect((await call(caller, 'GET', `/namespaces/${namespace.id}/eval-cases`)).json().total).toBe(2);
  });

  it('answers 422 in the envelope for bad bodies', async () => {
    const { caller, namespace } = await scene();
    for (const body of [
      {},
      { question: '' },
      { question: '   ' },
      { question: 'x'.repeat(EVAL_QUESTION_MAX_CHARS + 1) },
      { question: 'Fine?', expectedDocumentId: 'not-a-uuid' },
      { question: 'Fine?', expectedAnswer: '' },
      { question: 'Fine?', expectedIntent: 'x'.repeat(101) },
      { question: 'Fine?', unknown: true },
    ]) {
      const res = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-cases`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.json()).toMatchObject({ error: 'ValidationError', statusCode: 422 });
    }
    const paging = await call(caller, 'GET', `/namespaces/${namespace.id}/eval-cases?limit=101`);
    expect(paging.statusCode).toBe(422);
  });

  it('answers 422 for an expected document outside the knowledge bases the namespace searches', async () => {
    const { caller, namespace, department } = await scene();
    // Same department, but a knowledge base the namespace's config leaves out.
    const elsewhere = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [{ title: 'Elsewhere', chunks: ['Unrelated text.'] }],
    });
    const other = await createKnowledgeFixture(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
      documents: [{ title: 'Other department', chunks: ['Unrelated text.'] }],
    });
    for (const documentId of [
      elsewhere.documents[0]!.document.id,
      other.documents[0]!.document.id,
      MISSING,
    ]) {
      const res = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-cases`, {
        question: 'Fine?',
        expectedDocumentId: documentId,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        error: 'ValidationError',
        message: 'Request validation failed',
        details: [{ field: 'body.expectedDocumentId' }],
      });
    }
  });
});

/** Row counts of everything a real answer would write, and the trust records' values. */
async function footprint() {
  const { db, queue } = ctx.container;
  const rows = async (table: PgTable) => (await db.select({ n: count() }).from(table))[0]?.n ?? 0;
  return {
    conversations: await rows(conversations),
    messages: await rows(messages),
    approvals: await rows(approvals),
    agentTasks: await rows(agentTasks),
    agentRuns: await rows(agentRuns),
    retrievalHits: await rows(retrievalHits),
    intentInteractions: await rows(intentInteractions),
    notifications: await rows(notifications),
    trust: await db.select().from(intentTrust),
    chanAOutbound: await queue.counts('chanA-outbound'),
    chanBOutbound: await queue.counts('chanB-outbound'),
  };
}

describe('eval runs', () => {
  it('runs the cases in the background and answers per-case results and totals, touching nothing else', async () => {
    const { caller, namespace, vacation, expenses } = await scene();
    // Intent examples: one that the first question repeats word for word.
    for (const [intentName, exampleText] of [
      ['vacation', VACATION],
      ['vacation', 'How many days off do I have a year?'],
      ['expenses', 'When are my travel costs paid back?'],
    ]) {
      const res = await call(caller, 'POST', '/intents/examples', {
        namespaceId: namespace.id,
        intentName,
        exampleText,
      });
      expect(res.statusCode).toBe(201);
    }
    const cases = [
      {
        question: VACATION,
        expectedAnswer: 'twenty four days',
        expectedDocumentId: vacation.id,
        expectedIntent: 'vacation',
      },
      { question: 'Who won the football championship in 1998?' },
      // Answered from the expense policy, so the expected (vacation) document is not the top source.
      { question: EXPENSES, expectedDocumentId: vacation.id },
    ];
    for (const body of cases) {
      expect((await call(caller, 'POST', `/namespaces/${namespace.id}/eval-cases`, body)).statusCode).toBe(
        201,
      );
    }
    const before = await footprint();

    const started = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-runs`);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({
      id: expect.any(String),
      status: 'queued',
      caseCount: 3,
      totals: null,
    });
    const run = await finishedRun(caller, namespace.id, started.json().id);

    expect(run.status).toBe('completed');
    expect(run.processed).toBe(3);
    const [first, second, third] = run.results;
    expect(first).toMatchObject({
      question: VACATION,
      fallback: false,
      answerMatches: true,
      topSourceMatches: true,
      documentCited: true,
      predictedIntent: 'vacation',
      intentMatches: true,
      correct: true,
      error: null,
    });
    expect(first!.draft).toMatch(/twenty four days/i);
    expect((first!.sources as Array<{ documentId: string; title: string }>)[0]).toMatchObject({
      documentId: vacation.id,
      title: 'Vacation policy',
    });
    expect(first!.confidence).toBeGreaterThanOrEqual(0.7);
    expect(second).toMatchObject({
      fallback: true,
      correct: false,
      answerMatches: null,
      topSourceMatches: null,
    });
    expect(second!.confidence).toBeLessThan(0.7);
    expect(third).toMatchObject({ fallback: false, topSourceMatches: false, correct: false });
    expect((third!.sources as Array<{ documentId: string }>)[0]!.documentId).toBe(expenses.id);
    expect(run.totals).toEqual({
      cases: 3,
      correct: 1,
      accuracy: 0.3333,
      withExpectedDocument: 2,
      top1SourceAccuracy: 0.5,
      withExpectedIntent: 1,
      intentAccuracy: 1,
      fallbacks: 1,
      errors: 0,
    });

    // Nothing was sent or stored as a conversation; trust, interactions and analytics rows are unchanged.
    expect(await footprint()).toEqual(before);

    // Listed newest first, without per-case results.
    const secondRun = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-runs`);
    expect(secondRun.statusCode).toBe(202);
    await finishedRun(caller, namespace.id, secondRun.json().id);
    const listed = await call(caller, 'GET', `/namespaces/${namespace.id}/eval-runs?limit=1`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(listed.json().items[0]).toMatchObject({ id: secondRun.json().id, status: 'completed' });
    expect(listed.json().items[0].results).toBeUndefined();
  });

  it('refuses a run while one is active or without cases (409), and hides runs of other namespaces (404)', async () => {
    const { caller, namespace, department } = await scene();
    const empty = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-runs`);
    expect(empty.statusCode).toBe(409);
    expect(empty.json().error).toBe('ConflictError');

    await call(caller, 'POST', `/namespaces/${namespace.id}/eval-cases`, { question: VACATION });
    // An active run, written without its job, so it stays queued while the request is made.
    const evaluation = ctx.container.evaluation.repositories.evaluation;
    const active = await evaluation.insertRun({ namespaceId: namespace.id, requestedBy: null, caseCount: 1 });
    const busy = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-runs`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toContain(active.id);

    // The sweep adds the missing job of a run left queued, which then completes.
    expect(await ctx.container.evaluation.lostRuns.requeue(Date.now(), -60_000)).toBeGreaterThanOrEqual(1);
    const recovered = await finishedRun(caller, namespace.id, active.id);
    expect(recovered).toMatchObject({ status: 'completed', processed: 1 });

    const sibling = await createNamespace(ctx.container, { departmentId: department.id });
    const res = await call(caller, 'GET', `/namespaces/${sibling.id}/eval-runs/${active.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('NotFoundError');
  });

  it('marks failed a run left queued whose job has already ended', async () => {
    const { caller, namespace } = await scene();
    const evaluation = ctx.container.evaluation.repositories.evaluation;
    const run = await evaluation.insertRun({ namespaceId: namespace.id, requestedBy: null, caseCount: 1 });
    // The run's job ends without the run (as when its process stopped between the two writes).
    const jobId = await ctx.container.queue.add(
      'namespace-evaluation',
      'evaluate',
      { runId: MISSING },
      { jobId: `eval-run-${run.id}` },
    );
    await waitFor(
      'the job to complete',
      async () => (await ctx.container.queue.getJob('namespace-evaluation', jobId))?.state === 'completed',
    );
    await ctx.container.evaluation.lostRuns.requeue(Date.now(), -60_000);
    const failed = await finishedRun(caller, namespace.id, run.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBeTruthy();
  });

  it('audits adding a case under the case id', async () => {
    const { caller, namespace } = await scene();
    const created = await call(caller, 'POST', `/namespaces/${namespace.id}/eval-cases`, {
      question: 'Audited?',
    });
    const rows = await ctx.container.db.select().from(auditLogs);
    expect(rows.some((r) => r.entityType === 'eval_cases' && r.entityId === created.json().id)).toBe(true);
  });
});
