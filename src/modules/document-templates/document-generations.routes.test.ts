import { and, eq } from 'drizzle-orm';
import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  createDepartment,
  createKnowledgeBase,
  createNamespace,
  createUser,
  type TestUser,
} from '../../../test/factories.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { securityChecks } from '../../../test/security.js';
import { chunks, documentGenerations, documents, notifications } from '../../core/db/schema/index.js';

// Workers run: a result saved to a knowledge base is ingested like any upload.
const ctx = useTestApp({}, { workers: true });

const MISSING = '00000000-0000-4000-8000-000000000000';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const OFFER_BODY = [
  '# Job offer',
  '',
  'Dear **{{candidate}}**,',
  '',
  'You start on {{start}} at a monthly salary of {{salary}}.',
  '',
  '{{#remote}}- You may work remotely{{/remote}}{{^remote}}- You work at the office{{/remote}}',
  '',
  '| Item | Value |',
  '|------|-------|',
  '| Salary | {{salary}} |',
].join('\n');

/** The offer template in `departmentId` (a namespace of that department). */
async function offerIn(departmentId: string, values: { name?: string; outputFormat?: string } = {}) {
  const namespace = await createNamespace(ctx.container, { departmentId });
  return ctx.container.documentTemplates.repositories.templates.insert({
    namespaceId: namespace.id,
    departmentId,
    name: values.name ?? 'Job offer',
    templateBody: OFFER_BODY,
    outputFormat: values.outputFormat ?? 'md',
    variables: [
      { name: 'candidate', label: 'Candidate', type: 'string', required: true, default: null },
      { name: 'start', label: 'Start date', type: 'date', required: true, default: null },
      { name: 'salary', label: 'Salary', type: 'number', required: false, default: 2500 },
      { name: 'remote', label: 'Remote', type: 'boolean', required: false, default: false },
    ],
  });
}

const INPUT = { candidate: 'Olena Kovalenko', start: '2027-01-10', remote: true };

securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/document-templates/${MISSING}/generate`,
  payload: { input: INPUT },
  permission: 'canGenerateDocuments',
  otherDepartmentUrl: async () =>
    `/api/v1/document-templates/${(await offerIn((await createDepartment(ctx.container)).id)).id}/generate`,
});
securityChecks(() => ctx, { method: 'GET', url: '/api/v1/document-generations' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/document-generations/${MISSING}`,
  otherDepartmentUrl: async () => {
    const other = await createUser(ctx.container);
    const [row] = await ctx.container.db
      .insert(documentGenerations)
      .values({ userId: other.user.id, departmentId: other.user.departmentId, outputFormat: 'md' })
      .returning();
    return `/api/v1/document-generations/${row!.id}`;
  },
});

const generate = (caller: TestUser, templateId: string, payload: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/document-templates/${templateId}/generate`,
    headers: caller.headers,
    payload,
  });
const get = (caller: TestUser, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: caller.headers });

const historyOf = (userId: string) =>
  ctx.container.db.select().from(documentGenerations).where(eq(documentGenerations.userId, userId));

describe('POST /document-templates/:id/generate', () => {
  it('answers Markdown with the values escaped and writes a history row', async () => {
    const caller = await createUser(ctx.container);
    const template = await offerIn(caller.user.departmentId);
    const res = await generate(caller, template.id, { input: { ...INPUT, candidate: 'Olena *K* <b>' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.body).toContain('# Job offer');
    expect(res.body).toContain('Dear **Olena \\*K\\* \\<b>**,');
    expect(res.body).toContain('You start on 2027-01-10 at a monthly salary of 2500.');
    expect(res.body).toContain('- You may work remotely');
    const [row] = await historyOf(caller.user.id);
    expect(res.headers['x-generation-id']).toBe(row!.id);
    expect(row).toMatchObject({
      templateId: template.id,
      templateName: 'Job offer',
      departmentId: caller.user.departmentId,
      input: { ...INPUT, candidate: 'Olena *K* <b>', salary: 2500 },
      outputFormat: 'md',
      sizeBytes: Buffer.byteLength(res.body),
      content: res.body,
      savedDocumentId: null,
    });
  });

  it('answers a sanitised HTML page', async () => {
    const caller = await createUser(ctx.container);
    const template = await offerIn(caller.user.departmentId);
    const res = await generate(caller, template.id, {
      input: { ...INPUT, candidate: '<script>alert(1)</script>' },
      outputFormat: 'html',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/^<!doctype html>/);
    expect(res.body).toContain('<title>Job offer</title>');
    expect(res.body).toContain('<h1>Job offer</h1>');
    expect(res.body).toContain('<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong>');
    expect(res.body).toContain('<td>2500</td>');
    expect(res.body).not.toContain('<script>');
    expect((await historyOf(caller.user.id))[0]).toMatchObject({
      outputFormat: 'html',
      sizeBytes: res.rawPayload.length,
    });
  });

  it('answers a DOCX download (the template’s default format) that reads back with the rendered text', async () => {
    const caller = await createUser(ctx.container);
    const template = await offerIn(caller.user.departmentId, { outputFormat: 'docx' });
    const res = await generate(caller, template.id, { input: INPUT });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(DOCX);
    expect(res.headers['content-disposition']).toBe('attachment; filename="job-offer.docx"');
    const { value: html } = await mammoth.convertToHtml({ buffer: res.rawPayload });
    expect(html).toContain('<h1>Job offer</h1>');
    expect(html).toContain('Dear <strong>Olena Kovalenko</strong>,');
    expect(html).toContain('You start on 2027-01-10 at a monthly salary of 2500.');
    expect(html).toContain('<ul><li>You may work remotely</li></ul>');
    expect(html).toMatch(/<td><p>Salary<\/p><\/td><td><p>2500<\/p><\/td>/);
    expect((await historyOf(caller.user.id))[0]).toMatchObject({
      outputFormat: 'docx',
      sizeBytes: res.rawPayload.length,
    });
  });

  it('fills the tags of a template created without variables (inferred from its body) in every format', async () => {
    const author = await createUser(ctx.container, { role: 'dept_head' });
    const namespace = await createNamespace(ctx.container, { departmentId: author.user.departmentId });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/document-templates',
      headers: author.headers,
      payload: {
        namespaceId: namespace.id,
        name: 'Welcome',
        templateBody: '# Welcome\n\nDear {{name}},{{#returning}} welcome back{{/returning}}.',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().variables).toEqual([
      { name: 'name', label: 'name', type: 'string', required: false, default: null },
      { name: 'returning', label: 'returning', type: 'string', required: false, default: null },
    ]);
    const id = created.json().id as string;
    const input = { name: 'Olena', returning: 'yes' };
    const markdown = await generate(author, id, { input });
    expect(markdown.statusCode).toBe(200);
    expect(markdown.body).toContain('Dear Olena, welcome back.');
    const html = await generate(author, id, { input, outputFormat: 'html' });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('Dear Olena, welcome back.');
    const docx = await generate(author, id, { input, outputFormat: 'docx' });
    expect(docx.statusCode).toBe(200);
    expect((await mammoth.convertToHtml({ buffer: docx.rawPayload })).value).toContain(
      'Dear Olena, welcome back.',
    );

    // A new body without variables is inferred again: nothing was declared by hand.
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/document-templates/${id}`,
      headers: author.headers,
      payload: { templateBody: 'Dear {{name}} of {{team}}.' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().variables.map((v: { name: string }) => v.name)).toEqual(['name', 'team']);
  });

  it('names a download after a non-Latin template name in filename*', async () => {
    const caller = await createUser(ctx.container);
    const template = await offerIn(caller.user.departmentId, { name: 'Договір оренди' });
    const res = await generate(caller, template.id, { input: INPUT, outputFormat: 'docx' });
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_______-______.docx"; filename*=UTF-8''${encodeURIComponent('договір-оренди.docx')}`,
    );
  });

  it('renders a preview without writing history', async () => {
    const caller = await createUser(ctx.container);
    const template = await offerIn(caller.user.departmentId);
    const res = await generate(caller, template.id, { input: { ...INPUT, remote: false }, preview: true });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('- You work at the office');
    expect(res.headers['x-generation-id']).toBeUndefined();
    expect(await historyOf(caller.user.id)).toEqual([]);
  });

  it('answers 422 with details for missing required values, wrong types and unknown keys', async () => {
    const caller = await createUser(ctx.container);
    const template = await offerIn(caller.user.departmentId);
    const res = await generate(caller, template.id, {
      input: { start: 'next monday', salary: '3000', bonus: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    expect(res.json().details).toEqual([
      { field: 'body.input.bonus', message: 'is not a variable of this template' },
      { field: 'body.input.candidate', message: 'is required (Candidate)' },
      { field: 'body.input.start', message: 'must be a date written YYYY-MM-DD' },
      { field: 'body.input.salary', message: 'must be a number' },
    ]);
    const format = await generate(caller, template.id, { input: INPUT, outputFormat: 'odt' });
    expect(format.statusCode).toBe(422);
    expect(await historyOf(caller.user.id)).toEqual([]);
  });

  it('answers 422 for a preview that asks to be saved', async () => {
    const caller = await createUser(ctx.container, { role: 'approver' });
    const template = await offerIn(caller.user.departmentId);
    const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const res = await generate(caller, template.id, {
      input: INPUT,
      preview: true,
      saveToKnowledgeBaseId: base.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('body.saveToKnowledgeBaseId');
  });

  it('answers 501 for pdf, asked for or the template’s default', async () => {
    const caller = await createUser(ctx.container);
    const template = await offerIn(caller.user.departmentId);
    const res = await generate(caller, template.id, { input: INPUT, outputFormat: 'pdf' });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toMatchObject({ error: 'NotImplementedError', statusCode: 501 });
    const pdfTemplate = await offerIn(caller.user.departmentId, { outputFormat: 'pdf' });
    expect((await generate(caller, pdfTemplate.id, { input: INPUT })).statusCode).toBe(501);
    expect(await historyOf(caller.user.id)).toEqual([]);
  });

  it('answers 404 for a missing template and 422 for a malformed id', async () => {
    const caller = await createUser(ctx.container);
    expect((await generate(caller, MISSING, { input: INPUT })).statusCode).toBe(404);
    expect((await generate(caller, 'nope', { input: INPUT })).statusCode).toBe(422);
  });

  it('answers 403 for saving without canUploadDocuments and 404 for a knowledge base outside', async () => {
    const employee = await createUser(ctx.container);
    const template = await offerIn(employee.user.departmentId);
    const base = await createKnowledgeBase(ctx.container, { departmentId: employee.user.departmentId });
    const denied = await generate(employee, template.id, { input: INPUT, saveToKnowledgeBaseId: base.id });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Saving to a knowledge base needs canUploadDocuments');

    const approver = await createUser(ctx.container, {
      role: 'approver',
      departmentId: employee.user.departmentId,
    });
    const foreign = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    for (const id of [foreign.id, MISSING]) {
      expect(
        (await generate(approver, template.id, { input: INPUT, saveToKnowledgeBaseId: id })).statusCode,
      ).toBe(404);
    }
    expect(await historyOf(employee.user.id)).toEqual([]);
    expect(await historyOf(approver.user.id)).toEqual([]);
  });

  it.each(['md', 'docx'] as const)(
    'saves a %s result to a knowledge base: a ready document whose chunks hold the rendered text, then document_ready',
    async (outputFormat) => {
      const caller = await createUser(ctx.container, { role: 'approver' });
      const template = await offerIn(caller.user.departmentId);
      const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
      const res = await generate(caller, template.id, {
        input: INPUT,
        outputFormat,
        saveToKnowledgeBaseId: base.id,
      });
      expect(res.statusCode).toBe(200);
      const documentId = res.headers['x-document-id'] as string;
      expect(documentId).toEqual(expect.any(String));
      const ready = await waitFor('the saved document to be ready', async () => {
        const [row] = await ctx.container.db.select().from(documents).where(eq(documents.id, documentId));
        return row?.status === 'ready' || row?.status === 'failed' ? row : null;
      });
      expect(ready).toMatchObject({
        status: 'ready',
        knowledgeBaseId: base.id,
        title: 'Job offer',
        type: outputFormat,
      });
      const text = (await ctx.container.db.select().from(chunks).where(eq(chunks.documentId, documentId)))
        .map((c) => c.content)
        .join('\n');
      expect(text).toContain('Olena Kovalenko');
      expect(text).toContain('You start on 2027-01-10 at a monthly salary of 2500.');
      expect(text).not.toContain('{{');
      const [notice] = await waitFor('the document_ready notification', () =>
        ctx.container.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, caller.user.id), eq(notifications.type, 'document_ready'))),
      );
      expect(notice).toMatchObject({ entityType: 'document', entityId: documentId });
      expect((await historyOf(caller.user.id))[0]).toMatchObject({
        savedToKnowledgeBaseId: base.id,
        savedDocumentId: documentId,
      });
    },
  );
});

describe('GET /document-generations', () => {
  it('shows users their own history and template managers their departments’', async () => {
    const author = await createUser(ctx.container);
    const departmentId = author.user.departmentId;
    const colleague = await createUser(ctx.container, { departmentId });
    const manager = await createUser(ctx.container, { role: 'dept_head', departmentId });
    const outsideManager = await createUser(ctx.container, { role: 'dept_head' });
    const template = await offerIn(departmentId);
    const other = await offerIn(departmentId, { name: 'Other' });
    const first = (await generate(author, template.id, { input: INPUT })).headers['x-generation-id'];
    const second = (await generate(author, other.id, { input: INPUT, outputFormat: 'docx' })).headers[
      'x-generation-id'
    ];
    const theirs = (await generate(colleague, template.id, { input: INPUT })).headers['x-generation-id'];

    const ids = async (caller: TestUser, query = '') =>
      (await get(caller, `/document-generations${query}`)).json().items.map((g: { id: string }) => g.id);
    expect(await ids(author)).toEqual([second, first]);
    expect(await ids(colleague)).toEqual([theirs]);
    expect(await ids(manager)).toEqual([theirs, second, first]);
    expect(await ids(outsideManager)).toEqual([]);
    expect(await ids(manager, `?userId=${author.user.id}`)).toEqual([second, first]);
    expect(await ids(manager, `?templateId=${template.id}`)).toEqual([theirs, first]);
    // A non-manager filtering on someone else gets an empty list, not their rows.
    expect(await ids(colleague, `?userId=${author.user.id}`)).toEqual([]);

    const page = (await get(author, '/document-generations?limit=1')).json();
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(page.items[0]).toMatchObject({
      id: second,
      templateId: other.id,
      templateName: 'Other',
      userId: author.user.id,
      outputFormat: 'docx',
      input: { ...INPUT, salary: 2500 },
    });
    expect(page.items[0].sizeBytes).toBeGreaterThan(1000);
    expect(page.items[0]).not.toHaveProperty('content');
  });

  it('answers 422 for a malformed filter or a limit over 100', async () => {
    const caller = await createUser(ctx.container);
    expect((await get(caller, '/document-generations?userId=me')).statusCode).toBe(422);
    expect((await get(caller, '/document-generations?limit=101')).statusCode).toBe(422);
  });
});

describe('GET /document-generations/:id', () => {
  it('answers the row with its Markdown to its author and managers, 404 to others', async () => {
    const author = await createUser(ctx.container);
    const manager = await createUser(ctx.container, {
      role: 'dept_head',
      departmentId: author.user.departmentId,
    });
    const colleague = await createUser(ctx.container, { departmentId: author.user.departmentId });
    const template = await offerIn(author.user.departmentId);
    const res = await generate(author, template.id, { input: INPUT });
    const id = res.headers['x-generation-id'] as string;
    const own = await get(author, `/document-generations/${id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      id,
      templateId: template.id,
      content: res.body,
      sizeBytes: res.rawPayload.length,
    });
    expect((await get(manager, `/document-generations/${id}`)).json().id).toBe(id);
    expect((await get(colleague, `/document-generations/${id}`)).statusCode).toBe(404);
    expect((await get(author, `/document-generations/${MISSING}`)).statusCode).toBe(404);
    expect((await get(author, '/document-generations/x')).statusCode).toBe(422);
  });
});
