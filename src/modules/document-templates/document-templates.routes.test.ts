import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { documentGenerations, documentTemplates } from '../../core/db/schema/index.js';

const ctx = useTestApp();

const MISSING = '00000000-0000-4000-8000-000000000000';

/** A template row of a new department, written directly. */
async function templateIn(departmentId: string | null, namespaceDepartmentId = departmentId) {
  const namespace = await createNamespace(ctx.container, {
    departmentId: namespaceDepartmentId ?? (await createDepartment(ctx.container)).id,
  });
  return ctx.container.documentTemplates.repositories.templates.insert({
    namespaceId: namespace.id,
    departmentId,
    name: 'Letter',
    templateBody: 'Dear {{name}}',
    variables: [{ name: 'name', label: 'Name', type: 'string', required: true, default: null }],
  });
}

const otherTemplateUrl = async () => {
  const template = await templateIn((await createDepartment(ctx.container)).id);
  return `/api/v1/document-templates/${template.id}`;
};

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/document-templates' });
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/document-templates/${MISSING}`,
  otherDepartmentUrl: otherTemplateUrl,
});
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/document-templates',
  payload: { namespaceId: MISSING, name: 'Letter', templateBody: 'Hello' },
  permission: 'canManageTemplates',
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/document-templates/${MISSING}`,
  payload: { name: 'Renamed' },
  permission: 'canManageTemplates',
  otherDepartmentUrl: otherTemplateUrl,
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/document-templates/${MISSING}`,
  permission: 'canManageTemplates',
  otherDepartmentUrl: otherTemplateUrl,
});

const call = (caller: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

const head = () => createUser(ctx.container, { role: 'dept_head' });
const fields = (res: { json(): { details: Array<{ field: string }> } }) =>
  res.json().details.map((d) => d.field);

const OFFER = {
  name: 'Job offer',
  description: 'Offer letter',
  category: 'letter',
  templateBody: '# Offer\n\nDear {{candidate}}, from {{start}}: {{salary}}.{{#remote}} Remote.{{/remote}}',
  variables: [
    { name: 'candidate', label: 'Candidate', type: 'string', required: true },
    { name: 'start', type: 'date', required: true },
    { name: 'salary', type: 'number', default: 2500 },
    { name: 'remote', type: 'boolean', default: false },
  ],
  outputFormat: 'docx',
};

describe('POST /document-templates', () => {
  it('creates a template in the namespace’s department with normalised variables', async () => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'POST', '/document-templates', { namespaceId: namespace.id, ...OFFER });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      namespaceId: namespace.id,
      departmentId: caller.user.departmentId,
      name: 'Job offer',
      category: 'letter',
      outputFormat: 'docx',
      createdById: caller.user.id,
    });
    expect(body.variables).toEqual([
      { name: 'candidate', label: 'Candidate', type: 'string', required: true, default: null },
      { name: 'start', label: 'start', type: 'date', required: true, default: null },
      { name: 'salary', label: 'salary', type: 'number', required: false, default: 2500 },
      { name: 'remote', label: 'remote', type: 'boolean', required: false, default: false },
    ]);
    expect((await call(caller, 'GET', `/document-templates/${body.id}`)).json()).toEqual(body);
  });

  it('defaults category custom and format md, and shares a template with departmentId null', async () => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'POST', '/document-templates', {
      namespaceId: namespace.id,
      departmentId: null,
      name: 'Notice',
      templateBody: 'Plain text',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      departmentId: null,
      category: 'custom',
      outputFormat: 'md',
      variables: [],
    });
    // Shared: a user of any department sees and reads it.
    const stranger = await createUser(ctx.container);
    expect((await call(stranger, 'GET', `/document-templates/${res.json().id}`)).statusCode).toBe(200);
  });

  it.each([
    ['an unknown category', { category: 'memo' }, 'body.category'],
    ['an unknown output format', { outputFormat: 'odt' }, 'body.outputFormat'],
    ['an unknown variable type', { variables: [{ name: 'x', type: 'money' }] }, 'body.variables.0.type'],
    ['a variable name with a dot', { variables: [{ name: 'a.b', type: 'string' }] }, 'body.variables.0.name'],
    [
      'a variable name starting with _',
      { variables: [{ name: '__proto__', type: 'string' }] },
      'body.variables.0.name',
    ],
    ['an empty body', { templateBody: '' }, 'body.templateBody'],
  ])('answers 422 for %s', async (_label, change, field) => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'POST', '/document-templates', {
      namespaceId: namespace.id,
      ...OFFER,
      ...change,
    });
    expect(res.statusCode).toBe(422);
    expect(fields(res)).toContain(field);
  });

  it('answers 422 naming an unknown variable, a partial, unescaped output and a bad default', async () => {
    const caller = await head();
    const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'POST', '/document-templates', {
      namespaceId: namespace.id,
      name: 'Broken',
      templateBody: 'Dear {{client}} {{> footer}} {{{x}}}',
      variables: [{ name: 'x', type: 'number', default: 'many' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'body.variables.0.default', message: 'must be a number' },
      { field: 'body.templateBody', message: 'uses the unknown variable client; declare it in variables' },
      { field: 'body.templateBody', message: 'uses the partial {{> footer}}; partials are not allowed' },
      {
        field: 'body.templateBody',
        message: 'outputs {{x}} unescaped; use {{x}}, values are always escaped',
      },
    ]);
    expect(
      await ctx.container.db.select().from(documentTemplates).where(eq(documentTemplates.name, 'Broken')),
    ).toEqual([]);
  });

  it('answers 422 for a namespace outside the caller’s departments, a missing one, or another department', async () => {
    const caller = await head();
    const foreign = await createNamespace(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    for (const namespaceId of [foreign.id, MISSING]) {
      const res = await call(caller, 'POST', '/document-templates', {
        namespaceId,
        name: 'X',
        templateBody: 'x',
      });
      expect(res.statusCode).toBe(422);
      expect(fields(res)).toEqual(['body.namespaceId']);
    }
    const own = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
    const res = await call(caller, 'POST', '/document-templates', {
      namespaceId: own.id,
      departmentId: (await createDepartment(ctx.container)).id,
      name: 'X',
      templateBody: 'x',
    });
    expect(res.statusCode).toBe(422);
    expect(fields(res)).toEqual(['body.departmentId']);
  });
});

describe('GET /document-templates', () => {
  it('lists the caller’s departments and shared templates, filtered by category and department', async () => {
    const caller = await createUser(ctx.container);
    const own = await templateIn(caller.user.departmentId);
    const shared = await templateIn(null);
    const hidden = await templateIn((await createDepartment(ctx.container)).id);
    await ctx.container.documentTemplates.repositories.templates.update(own.id, { category: 'invoice' });

    const ids = (res: { json(): { items: Array<{ id: string }> } }) => res.json().items.map((t) => t.id);
    const all = await call(caller, 'GET', '/document-templates?limit=100');
    expect(ids(all)).toContain(own.id);
    expect(ids(all)).toContain(shared.id);
    expect(ids(all)).not.toContain(hidden.id);
    const invoices = await call(caller, 'GET', '/document-templates?category=invoice');
    expect(ids(invoices)).toEqual([own.id]);
    const mine = await call(
      caller,
      'GET',
      `/document-templates?departmentId=${caller.user.departmentId}&limit=1`,
    );
    expect(mine.json()).toMatchObject({ total: 1, limit: 1, offset: 0 });
    expect(ids(mine)).toEqual([own.id]);
  });

  it('answers 403 for a department outside and 422 for a bad category or limit', async () => {
    const caller = await createUser(ctx.container);
    const outside = await createDepartment(ctx.container);
    expect((await call(caller, 'GET', `/document-templates?departmentId=${outside.id}`)).statusCode).toBe(
      403,
    );
    expect((await call(caller, 'GET', '/document-templates?category=memo')).statusCode).toBe(422);
    expect((await call(caller, 'GET', '/document-templates?limit=101')).statusCode).toBe(422);
  });
});

describe('GET /document-templates/:id', () => {
  it('answers 404 for a missing template and 422 for a malformed id', async () => {
    const caller = await createUser(ctx.container);
    expect((await call(caller, 'GET', `/document-templates/${MISSING}`)).statusCode).toBe(404);
    expect((await call(caller, 'GET', '/document-templates/123')).statusCode).toBe(422);
  });
});

describe('PATCH /document-templates/:id', () => {
  it('changes fields and checks the new body against the stored variables', async () => {
    const caller = await head();
    const template = await templateIn(caller.user.departmentId);
    const res = await call(caller, 'PATCH', `/document-templates/${template.id}`, {
      name: 'Renamed',
      description: null,
      category: 'contract',
      templateBody: '## Hello {{name}}',
      outputFormat: 'html',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      category: 'contract',
      templateBody: '## Hello {{name}}',
      outputFormat: 'html',
    });
    const bad = await call(caller, 'PATCH', `/document-templates/${template.id}`, {
      templateBody: '{{other}}',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0].message).toBe('uses the unknown variable other; declare it in variables');
    // Replacing the variables must keep the stored body valid too.
    const dropped = await call(caller, 'PATCH', `/document-templates/${template.id}`, { variables: [] });
    expect(dropped.statusCode).toBe(422);
    expect(fields(dropped)).toEqual(['body.templateBody']);
  });

  it('answers 403 for a shared template of another department’s namespace and 404 for a missing one', async () => {
    const caller = await head();
    const shared = await templateIn(null);
    const res = await call(caller, 'PATCH', `/document-templates/${shared.id}`, { name: 'Mine now' });
    expect(res.statusCode).toBe(403);
    expect((await call(caller, 'PATCH', `/document-templates/${MISSING}`, { name: 'X' })).statusCode).toBe(
      404,
    );
    expect(
      (await call(caller, 'PATCH', `/document-templates/${shared.id}`, { category: 'memo' })).statusCode,
    ).toBe(422);
  });
});

describe('DELETE /document-templates/:id', () => {
  it('deletes the template and keeps its history rows without the link', async () => {
    const caller = await head();
    const template = await templateIn(caller.user.departmentId);
    const [generation] = await ctx.container.db
      .insert(documentGenerations)
      .values({
        templateId: template.id,
        templateName: template.name,
        userId: caller.user.id,
        outputFormat: 'md',
      })
      .returning();
    expect((await call(caller, 'DELETE', `/document-templates/${template.id}`)).statusCode).toBe(204);
    expect((await call(caller, 'GET', `/document-templates/${template.id}`)).statusCode).toBe(404);
    const [kept] = await ctx.container.db
      .select()
      .from(documentGenerations)
      .where(eq(documentGenerations.id, generation!.id));
    expect(kept).toMatchObject({ templateId: null, templateName: 'Letter' });
    expect((await call(caller, 'DELETE', `/document-templates/${template.id}`)).statusCode).toBe(404);
  });
});
