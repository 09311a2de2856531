import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture, createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { agentRuns, agentTasks, retrievalHits } from '../../core/db/schema/index.js';

const ctx = useTestApp();

/** What the model cost and took on every run these tests insert. */
const RUN_FIGURES = {
  provider: 'openai-compatible',
  model: 'test-model',
  inputTokens: 120,
  outputTokens: 30,
  totalTokens: 150,
  costUsd: 0.0004,
  latencyMs: 42,
};

/** A run as the generate step writes it, with the hits given. */
async function insertRun(values: {
  departmentId: string | null;
  taskId?: string | null;
  hits?: Array<{ chunkId: string; documentId: string; rank: number; score: number }>;
}) {
  const traceId = randomUUID();
  const [run] = await ctx.container.db
    .insert(agentRuns)
    .values({
      traceId,
      departmentId: values.departmentId,
      taskId: values.taskId ?? null,
      ...RUN_FIGURES,
    })
    .returning();
  for (const hit of values.hits ?? []) {
    await ctx.container.db
      .insert(retrievalHits)
      .values({ runId: run!.id, ...hit, vectorScore: hit.score - 0.1, keywordScore: hit.score + 0.1 });
  }
  return run!;
}

securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/traces/${randomUUID()}`,
  otherDepartmentUrl: async () => {
    const run = await insertRun({ departmentId: (await createDepartment(ctx.container)).id });
    return `/api/v1/traces/${run.traceId}`;
  },
});

describe('GET /traces/:trace_id', () => {
  it('answers the run with its retrieval hits, best rank first', async () => {
    const department = await createDepartment(ctx.container);
    const employee = await createUser(ctx.container, { departmentId: department.id });
    const knowledge = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [{ title: 'Policy', chunks: ['First chunk.', 'Second chunk.'] }],
    });
    const [doc] = knowledge.documents;
    const [first, second] = doc!.chunks;
    const run = await insertRun({
      departmentId: department.id,
      hits: [
        { chunkId: second!.id, documentId: doc!.document.id, rank: 2, score: 0.5 },
        { chunkId: first!.id, documentId: doc!.document.id, rank: 1, score: 0.9 },
      ],
    });

    const res = await ctx.app.inject({ url: `/api/v1/traces/${run.traceId}`, headers: employee.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: run.id,
      traceId: run.traceId,
      departmentId: department.id,
      ...RUN_FIGURES,
    });
    expect(body.retrievalHits).toEqual([
      {
        id: expect.any(String),
        chunkId: first!.id,
        documentId: doc!.document.id,
        rank: 1,
        score: 0.9,
        vectorScore: expect.closeTo(0.8),
        keywordScore: expect.closeTo(1.0),
      },
      expect.objectContaining({ chunkId: second!.id, rank: 2, score: 0.5 }),
    ]);
  });

  it("scopes a run without a department by its task's department", async () => {
    const department = await createDepartment(ctx.container);
    const id = randomUUID();
    await ctx.container.db
      .insert(agentTasks)
      .values({ id, jobId: `agent-task-${id}`, departmentId: department.id, status: 'done' });
    const run = await insertRun({ departmentId: null, taskId: id });
    const inside = await createUser(ctx.container, { departmentId: department.id });
    const outside = await createUser(ctx.container, { role: 'dept_head' });
    const url = `/api/v1/traces/${run.traceId}`;
    expect((await ctx.app.inject({ url, headers: inside.headers })).json().taskId).toBe(id);
    expect((await ctx.app.inject({ url, headers: outside.headers })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown trace and another department’s (a global admin sees it), 422 for a malformed id', async () => {
    const other = await createDepartment(ctx.container);
    const run = await insertRun({ departmentId: other.id });
    const head = await createUser(ctx.container, { role: 'dept_head' });
    const admin = await createUser(ctx.container, { role: 'admin' });
    const unknown = await ctx.app.inject({ url: `/api/v1/traces/${randomUUID()}`, headers: head.headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('NotFoundError');
    expect(
      (await ctx.app.inject({ url: `/api/v1/traces/${run.traceId}`, headers: head.headers })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.app.inject({ url: `/api/v1/traces/${run.traceId}`, headers: admin.headers })).json().id,
    ).toBe(run.id);
    const malformed = await ctx.app.inject({ url: '/api/v1/traces/bad%20id', headers: head.headers });
    expect(malformed.statusCode).toBe(422);
  });
});
