import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  createDepartment,
  createDocumentRow,
  createKnowledgeBase,
  createNamespace,
  createUser,
  type TestUser,
} from '../../../test/factories.js';
import { uploadKnowledgeFile } from '../../../test/knowledge-documents.js';
import { securityChecks } from '../../../test/security.js';
import { chunks, documents, knowledgeBases, namespaces } from '../../core/db/schema/index.js';
import { ingestJobId } from './document-metadata.js';
import { NO_LLM_REASON } from './ingestion/synthetic-questions.js';

const ctx = useTestApp();

const MISSING = '00000000-0000-4000-8000-000000000000';

/** A knowledge base in a department of its own, which the caller cannot see. */
const otherBaseUrl =
  (suffix = '') =>
  async () => {
    const base = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    return `/api/v1/knowledge/bases/${base.id}${suffix}`;
  };

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/knowledge/bases' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/knowledge/bases/${MISSING}`,
  otherDepartmentUrl: otherBaseUrl(),
});
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/knowledge/bases',
  payload: { name: 'Handbook', departmentId: MISSING },
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/knowledge/bases/${MISSING}`,
  payload: { name: 'Renamed' },
  otherDepartmentUrl: otherBaseUrl(),
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/knowledge/bases/${MISSING}/config`,
  payload: { ragWeights: { vector: 0.5, keyword: 0.5 } },
  permission: 'canUploadDocuments',
  otherDepartmentUrl: otherBaseUrl('/config'),
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/knowledge/bases/${MISSING}`,
  permission: 'canDeleteDocuments',
  otherDepartmentUrl: otherBaseUrl(),
});

const call = (caller: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

describe('POST /knowledge/bases', () => {
  it('creates a base in the caller’s department with the default weights, for any user', async () => {
    const caller = await createUser(ctx.container);
    const res = await call(caller, 'POST', '/knowledge/bases', {
      name: '  HR handbook ',
      departmentId: caller.user.departmentId,
      description: 'Policies',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'HR handbook',
      departmentId: caller.user.departmentId,
      description: 'Policies',
      ragWeights: { vector: 0.7, keyword: 0.3 },
      documentCount: 0,
    });
    expect((await call(caller, 'GET', `/knowledge/bases/${res.json().id}`)).statusCode).toBe(200);
  });

  it('answers 403 for a department outside the caller’s and creates nothing', async () => {
    const caller = await createUser(ctx.container, { role: 'dept_head' });
    const other = await createDepartment(ctx.container);
    const res = await call(caller, 'POST', '/knowledge/bases', { name: 'X', departmentId: other.id });
    expect(res.statusCode).toBe(403);
    const rows = await ctx.container.db
      .select()
      .from(knowledgeBases)
      .where(eq(knowledgeBases.departmentId, other.id));
    expect(rows).toEqual([]);
  });

  it('answers 422 for a department that does not exist, a missing name or an over-long one', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const missing = await call(admin, 'POST', '/knowledge/bases', { name: 'X', departmentId: MISSING });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details).toEqual([{ field: 'body.departmentId', message: expect.any(String) }]);
    const noName = await call(admin, 'POST', '/knowledge/bases', { departmentId: admin.user.departmentId });
    expect(noName.statusCode).toBe(422);
    const longName = await call(admin, 'POST', '/knowledge/bases', {
      name: 'x'.repeat(201),
      departmentId: admin.user.departmentId,
    });
    expect(longName.statusCode).toBe(422);
    expect(longName.json().details[0].field).toBe('body.name');
  });
});

describe('GET /knowledge/bases', () => {
  it('lists the bases of the caller’s departments only, with document counts and paging', async () => {
    const caller = await createUser(ctx.container);
    const mine = await createKnowledgeBase(ctx.container, {
      departmentId: caller.user.departmentId,
      name: 'Mine',
    });
    const second = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    await createDocumentRow(ctx.container, { knowledgeBaseId: mine.id, departmentId: mine.departmentId });
    const other = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });

    const res = await call(caller, 'GET', '/knowledge/bases');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, limit: 20, offset: 0 });
    const ids = body.items.map((b: { id: string }) => b.id);
    expect(ids.sort()).toEqual([mine.id, second.id].sort());
    expect(ids).not.toContain(other.id);
    expect(body.items.find((b: { id: string }) => b.id === mine.id).documentCount).toBe(1);

    const page = (await call(caller, 'GET', '/knowledge/bases?limit=1&offset=1')).json();
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.items).toHaveLength(1);
  });

  it('filters by a department of the caller, answers 403 for another, and lets a global user see all', async () => {
    const other = await createDepartment(ctx.container);
    const caller = await createUser(ctx.container, { extraDepartmentIds: [other.id] });
    const inOther = await createKnowledgeBase(ctx.container, { departmentId: other.id });
    await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const filtered = (await call(caller, 'GET', `/knowledge/bases?departmentId=${other.id}`)).json();
    expect(filtered.items.map((b: { id: string }) => b.id)).toEqual([inOther.id]);

    const outside = await createDepartment(ctx.container);
    const forbidden = await call(caller, 'GET', `/knowledge/bases?departmentId=${outside.id}`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('ForbiddenError');

    const admin = await createUser(ctx.container, { role: 'admin' });
    const all = (await call(admin, 'GET', `/knowledge/bases?departmentId=${other.id}`)).json();
    expect(all.items.map((b: { id: string }) => b.id)).toEqual([inOther.id]);
  });

  it('answers 422 for a limit over 100 or a malformed department id', async () => {
    const caller = await createUser(ctx.container);
    expect((await call(caller, 'GET', '/knowledge/bases?limit=101')).statusCode).toBe(422);
    expect((await call(caller, 'GET', '/knowledge/bases?departmentId=nope')).statusCode).toBe(422);
  });
});

describe('GET /knowledge/bases/:id', () => {
  it('answers 404 for a missing id and 422 for a malformed one', async () => {
    const caller = await createUser(ctx.container);
    const missing = await call(caller, 'GET', `/knowledge/bases/${MISSING}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain(MISSING);
    expect((await call(caller, 'GET', '/knowledge/bases/not-a-uuid')).statusCode).toBe(422);
  });
});

describe('PATCH /knowledge/bases/:id', () => {
  it('renames and clears the description', async () => {
    const caller = await createUser(ctx.container);
    const base = await createKnowledgeBase(ctx.container, {
      departmentId: caller.user.departmentId,
      description: 'old',
    });
    const res = await call(caller, 'PATCH', `/knowledge/bases/${base.id}`, {
      name: 'New name',
      description: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New name', description: null });
  });

  it('answers 422 for an empty name and changes nothing', async () => {
    const caller = await createUser(ctx.container);
    const base = await createKnowledgeBase(ctx.container, {
      departmentId: caller.user.departmentId,
      name: 'Keep',
    });
    expect((await call(caller, 'PATCH', `/knowledge/bases/${base.id}`, { name: '' })).statusCode).toBe(422);
    expect((await call(caller, 'GET', `/knowledge/bases/${base.id}`)).json().name).toBe('Keep');
  });
});

describe('PATCH /knowledge/bases/:id/config', () => {
  it('sets the rag weights', async () => {
    const caller = await createUser(ctx.container, { role: 'approver' });
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'PATCH', `/knowledge/bases/${base.id}/config`, {
      ragWeights: { vector: 1, keyword: 0 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().ragWeights).toEqual({ vector: 1, keyword: 0 });
  });

  it('answers 422 for both weights zero, a negative weight or a missing one, and keeps the old weights', async () => {
    const caller = await createUser(ctx.container, { role: 'approver' });
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const url = `/knowledge/bases/${base.id}/config`;
    const zero = await call(caller, 'PATCH', url, { ragWeights: { vector: 0, keyword: 0 } });
    expect(zero.statusCode).toBe(422);
    expect(zero.json().details[0].field).toBe('body.ragWeights');
    expect((await call(caller, 'PATCH', url, { ragWeights: { vector: -0.1, keyword: 1 } })).statusCode).toBe(
      422,
    );
    expect((await call(caller, 'PATCH', url, { ragWeights: { vector: 1 } })).statusCode).toBe(422);
    expect((await call(caller, 'GET', `/knowledge/bases/${base.id}`)).json().ragWeights).toEqual({
      vector: 0.7,
      keyword: 0.3,
    });
  });
});

describe('the syntheticQuestions option', () => {
  it('is off by default, set on create, and an update without perChunk keeps it', async () => {
    const caller = await createUser(ctx.container);
    const departmentId = caller.user.departmentId;
    const plain = await call(caller, 'POST', '/knowledge/bases', { name: 'Plain', departmentId });
    expect(plain.json().syntheticQuestions).toEqual({ enabled: false, perChunk: 3 });

    const created = await call(caller, 'POST', '/knowledge/bases', {
      name: 'With questions',
      departmentId,
      syntheticQuestions: { enabled: true, perChunk: 5 },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().syntheticQuestions).toEqual({ enabled: true, perChunk: 5 });

    const url = `/knowledge/bases/${created.json().id}`;
    const off = await call(caller, 'PATCH', url, { syntheticQuestions: { enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json().syntheticQuestions).toEqual({ enabled: false, perChunk: 5 });
    const on = await call(caller, 'PATCH', url, { syntheticQuestions: { enabled: true, perChunk: 1 } });
    expect(on.json().syntheticQuestions).toEqual({ enabled: true, perChunk: 1 });
    expect((await call(caller, 'GET', url)).json().syntheticQuestions).toEqual({
      enabled: true,
      perChunk: 1,
    });
  });

  it('answers 422 for perChunk outside 1 to 5, a fraction, a missing or non-boolean enabled, or null', async () => {
    const caller = await createUser(ctx.container);
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const url = `/knowledge/bases/${base.id}`;
    for (const syntheticQuestions of [
      { enabled: true, perChunk: 0 },
      { enabled: true, perChunk: 6 },
      { enabled: true, perChunk: 2.5 },
      { perChunk: 2 },
      { enabled: 'yes' },
      null,
    ]) {
      const res = await call(caller, 'PATCH', url, { syntheticQuestions });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('ValidationError');
      expect(res.json().details[0].field).toMatch(/^body\.syntheticQuestions/);
    }
    const create = await call(caller, 'POST', '/knowledge/bases', {
      name: 'X',
      departmentId: caller.user.departmentId,
      syntheticQuestions: { enabled: true, perChunk: 9 },
    });
    expect(create.statusCode).toBe(422);
    expect((await call(caller, 'GET', url)).json().syntheticQuestions).toEqual({
      enabled: false,
      perChunk: 3,
    });
  });

  it('without an LLM is kept but does nothing: the document is ready and says why no questions were made', async () => {
    const caller = await createUser(ctx.container);
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    await call(caller, 'PATCH', `/knowledge/bases/${base.id}`, { syntheticQuestions: { enabled: true } });
    const { id } = await uploadKnowledgeFile(ctx.app, caller, {
      knowledgeBaseId: base.id,
      title: 'Leave',
      filename: 'leave.txt',
      content: Buffer.from('Vacation requests go to your manager.'),
    });
    // This app runs no workers: the ingestion job is run here, as the worker would.
    expect(await ctx.container.knowledge.ingestion.ingest(id, ingestJobId(id, 1))).toBe('ready');
    const doc = (await call(caller, 'GET', `/knowledge/documents/${id}`)).json();
    expect(doc.status).toBe('ready');
    expect(doc.metadata.ingestion.syntheticQuestions).toEqual({ status: 'skipped', reason: NO_LLM_REASON });
    const stored = await ctx.container.db
      .select({ q: chunks.syntheticQuestions })
      .from(chunks)
      .where(eq(chunks.documentId, id));
    expect(stored).toEqual([{ q: null }]);
  });
});

describe('DELETE /knowledge/bases/:id', () => {
  it('deletes the base with its documents and chunks and unlinks it from namespaces', async () => {
    const caller = await createUser(ctx.container, { role: 'dept_head' });
    const departmentId = caller.user.departmentId;
    const base = await createKnowledgeBase(ctx.container, { departmentId });
    const kept = await createKnowledgeBase(ctx.container, { departmentId });
    const doc = await createDocumentRow(ctx.container, { knowledgeBaseId: base.id, departmentId });
    await ctx.container.db
      .insert(chunks)
      .values({ documentId: doc.id, knowledgeBaseId: base.id, chunkIndex: 0, content: 'text' });
    const namespace = await createNamespace(ctx.container, {
      departmentId,
      config: { knowledgeBaseIds: [base.id, kept.id], agentRunner: { activeAdapter: 'api' } },
    });

    const res = await call(caller, 'DELETE', `/knowledge/bases/${base.id}`);
    expect(res.statusCode).toBe(204);
    expect((await call(caller, 'GET', `/knowledge/bases/${base.id}`)).statusCode).toBe(404);
    expect(await ctx.container.db.select().from(documents).where(eq(documents.id, doc.id))).toEqual([]);
    expect(await ctx.container.db.select().from(chunks).where(eq(chunks.documentId, doc.id))).toEqual([]);
    const [ns] = await ctx.container.db.select().from(namespaces).where(eq(namespaces.id, namespace.id));
    expect(ns!.config).toEqual({ knowledgeBaseIds: [kept.id], agentRunner: { activeAdapter: 'api' } });
  });

  it('answers 404 for a missing base', async () => {
    const caller = await createUser(ctx.container, { role: 'dept_head' });
    expect((await call(caller, 'DELETE', `/knowledge/bases/${MISSING}`)).statusCode).toBe(404);
  });
});
