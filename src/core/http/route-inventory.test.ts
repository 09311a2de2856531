import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { OPERATION_DOCS, TAG_DOCS } from './i18n/index.js';
import { LANGUAGES } from './i18n/types.js';
import { API_PREFIX } from './openapi.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

type Operation = { operationId?: string; summary?: string; description?: string; tags?: string[] };
type Spec = { servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };

const specIn = async (lang: string): Promise<Spec> => {
  const res = await ctx.app.inject({ url: `/docs/json?lang=${lang}` });
  expect(res.statusCode).toBe(200);
  return res.json();
};

const operationsOf = (spec: Spec) =>
  Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, ...op })),
  );

describe('route inventory', () => {
  it('holds every API route to auth config, tags, an operationId and texts in en, ru and uk', () => {
    const apiRoutes = ctx.app.routeInventory.filter(
      (r) => r.url.startsWith(API_PREFIX) && r.method !== 'HEAD',
    );
    expect(apiRoutes.length).toBeGreaterThan(5);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const route of apiRoutes) {
      const name = `${route.method} ${route.url}`;
      if (route.auth !== 'none' && route.auth !== 'user') problems.push(`${name}: no config.auth`);
      if (route.tags.length === 0) problems.push(`${name}: no tags`);
      for (const tag of route.tags)
        if (!TAG_DOCS[tag]) problems.push(`${name}: tag ${tag} has no description`);
      if (!route.operationId) {
        problems.push(`${name}: no operationId`);
        continue;
      }
      if (seen.has(route.operationId))
        problems.push(`${name}: operationId ${route.operationId} is used twice`);
      seen.add(route.operationId);
      if (!/^[a-z][A-Za-z]+$/.test(route.operationId)) problems.push(`${name}: operationId is not camelCase`);
      const texts = OPERATION_DOCS[route.operationId];
      for (const lang of LANGUAGES) {
        const text = texts?.[lang];
        if (!text?.summary.trim() || !text.description.trim()) {
          problems.push(`${name}: missing ${lang} summary or description`);
        }
      }
      for (const lang of ['ru', 'uk'] as const) {
        if (texts && texts[lang].summary === texts.en.summary)
          problems.push(`${name}: ${lang} summary is English`);
        if (texts && texts[lang].description === texts.en.description) {
          problems.push(`${name}: ${lang} description is English`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no translation left over for an operation that no longer exists', () => {
    const operationIds = new Set(ctx.app.routeInventory.map((r) => r.operationId).filter(Boolean));
    expect(Object.keys(OPERATION_DOCS).filter((id) => !operationIds.has(id))).toEqual([]);
  });
});

describe('GET /docs/json', () => {
  it('serves the description with server URL /api/v1 and paths relative to it', async () => {
    const spec = await specIn('en');
    expect(spec.servers).toEqual([{ url: '/api/v1' }]);
    expect(spec.paths['/auth/login']?.post?.operationId).toBe('loginUser');
    expect(Object.keys(spec.paths).some((p) => p.startsWith('/api/v1'))).toBe(false);
  });

  it('differs from English in every summary and description in ru and uk', async () => {
    const en = operationsOf(await specIn('en'));
    expect(en.length).toBeGreaterThan(5);
    for (const lang of ['ru', 'uk']) {
      const translated = new Map(operationsOf(await specIn(lang)).map((op) => [op.key, op]));
      for (const op of en) {
        expect(op.summary, op.key).toBeTruthy();
        const other = translated.get(op.key);
        expect(other?.summary, `${lang} ${op.key}`).toBeTruthy();
        expect(other?.summary, `${lang} ${op.key}`).not.toBe(op.summary);
        expect(other?.description, `${lang} ${op.key}`).not.toBe(op.description);
      }
    }
  });

  it('answers 422 for a language it does not have', async () => {
    const res = await ctx.app.inject({ url: '/docs/json?lang=de' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('ValidationError');
  });

  it('serves the explorer at /docs', async () => {
    const res = await ctx.app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
