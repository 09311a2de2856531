import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { LANGUAGE_NEUTRAL } from './i18n/common.js';
import { DOCS_AREAS, OPERATION_DOCS, TAG_DOCS } from './i18n/index.js';
import { LANGUAGES } from './i18n/types.js';
import { API_PREFIX } from './openapi.js';
import {
  PLACEHOLDER,
  type RouteRecord,
  routeFor,
  routesWithoutSecurityChecks,
  type SecurityCheckCall,
} from './route-inventory.js';

const ctx = useTestApp();

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

/** The strings a `for (const x of ['a', 'b'])` around `id` binds it to; null when it is bound otherwise. */
function loopValues(id: ts.Identifier): string[] | null {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    if (!ts.isForOfStatement(node) || !ts.isVariableDeclarationList(node.initializer)) continue;
    const declared = node.initializer.declarations[0]?.name;
    if (!declared || !ts.isIdentifier(declared) || declared.text !== id.text) continue;
    const list = ts.isAsExpression(node.expression) ? node.expression.expression : node.expression;
    if (!ts.isArrayLiteralExpression(list)) return null;
    const values = list.elements.map((e) => (ts.isStringLiteral(e) ? e.text : null));
    return values.every((v) => v !== null) ? (values as string[]) : null;
  }
  return null;
}

/**
 * The texts a string or template literal stands for: a `${x}` whose `x` is
 * the variable of an enclosing for-of over string literals gives one text per
 * value; any other `${…}` becomes PLACEHOLDER. Null for anything else.
 */
function literalTexts(node: ts.Expression): string[] | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (!ts.isTemplateExpression(node)) return null;
  let texts = [node.head.text];
  for (const span of node.templateSpans) {
    const values = (ts.isIdentifier(span.expression) && loopValues(span.expression)) || [PLACEHOLDER];
    texts = texts.flatMap((text) => values.map((value) => text + value + span.literal.text));
  }
  return texts;
}

/**
 * Every `securityChecks(getCtx, { method, url, … })` call in a source text,
 * read with the TypeScript parser: `method` and `url` are taken from the
 * object literal's own properties (a payload's `url` key is not confused with
 * them). A call whose endpoint is not written as literals is reported as
 * unreadable, so it cannot silently count for nothing.
 */
function securityCheckCalls(
  sourceText: string,
  fileName: string,
): { calls: SecurityCheckCall[]; unreadable: string[] } {
  const file = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true);
  const calls: SecurityCheckCall[] = [];
  const unreadable: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      if (node.expression.text === 'securityChecks') {
        const where = `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const endpoint = node.arguments[1];
        const props = new Map<string, string[] | null>();
        if (endpoint && ts.isObjectLiteralExpression(endpoint)) {
          for (const prop of endpoint.properties) {
            if (ts.isPropertyAssignment(prop) && ts.isIdentifier(prop.name)) {
              props.set(prop.name.text, literalTexts(prop.initializer));
            }
          }
        }
        const [method] = props.get('method') ?? [];
        const urls = props.get('url');
        if (!method || !urls) unreadable.push(where);
        else for (const url of urls) calls.push({ method, url: url.split('?')[0]!, source: where });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { calls, unreadable };
}

/** The *.test.ts files under a directory, recursively. */
function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => path.join(dir, name));
}

describe('security checks inventory', () => {
  const route = (method: string, url: string, auth: RouteRecord['auth'] = 'user'): RouteRecord => ({
    method,
    url,
    auth,
    permission: undefined,
    tags: [],
    operationId: undefined,
    hidden: false,
  });

  it('reads method and url of securityChecks calls, templates and payload urls included', () => {
    const source = [
      "securityChecks(() => ctx, { method: 'GET', url: '/api/v1/things?limit=5' });",
      'securityChecks(() => ctx, {',
      "  method: 'PATCH',",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template
      '  url: `/api/v1/things/${MISSING}/parts`,',
      "  payload: { url: 'https://example.com/', method: 'DELETE' },",
      '});',
      'securityChecks(() => ctx, endpoint);',
      "for (const kind of ['grant', 'revoke'] as const) {",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template
      "  securityChecks(() => ctx, { method: 'POST', url: `/api/v1/things/${id}/${kind}` });",
      '}',
    ].join('\n');
    const { calls, unreadable } = securityCheckCalls(source, 'x.test.ts');
    expect(calls.map(({ method, url }) => ({ method, url }))).toEqual([
      { method: 'GET', url: '/api/v1/things' },
      { method: 'PATCH', url: `/api/v1/things/${PLACEHOLDER}/parts` },
      { method: 'POST', url: `/api/v1/things/${PLACEHOLDER}/grant` },
      { method: 'POST', url: `/api/v1/things/${PLACEHOLDER}/revoke` },
    ]);
    expect(unreadable).toEqual(['x.test.ts:7']);
  });

  it('matches a call to the route the router would pick and reports user routes without one', () => {
    const routes = [
      route('GET', '/api/v1/things'),
      route('GET', '/api/v1/things/:id'),
      route('GET', '/api/v1/things/summary'),
      route('PATCH', '/api/v1/things/:id/parts'),
      route('DELETE', '/api/v1/things/:id'),
      route('POST', '/api/v1/auth/login', 'none'),
      route('HEAD', '/api/v1/things'),
    ];
    const call = (method: string, url: string) => ({ method, url, source: 'x' });
    expect(routeFor('GET', '/api/v1/things/summary', routes)?.url).toBe('/api/v1/things/summary');
    expect(routeFor('GET', `/api/v1/things/${PLACEHOLDER}`, routes)?.url).toBe('/api/v1/things/:id');
    expect(
      routesWithoutSecurityChecks(routes, [
        call('GET', '/api/v1/things'),
        call('GET', '/api/v1/things/summary'),
        call('PATCH', `/api/v1/things/${PLACEHOLDER}/parts`),
        call('GET', '/api/v1/other'),
      ]),
    ).toEqual(['GET /api/v1/things/:id', 'DELETE /api/v1/things/:id']);
  });

  it("finds a securityChecks call in the test files for every auth: 'user' route", () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const files = [...testFilesUnder(path.join(root, 'src')), ...testFilesUnder(path.join(root, 'test'))];
    const calls: SecurityCheckCall[] = [];
    const unreadable: string[] = [];
    for (const file of files) {
      const found = securityCheckCalls(readFileSync(file, 'utf8'), path.relative(root, file));
      calls.push(...found.calls);
      unreadable.push(...found.unreadable);
    }
    expect(calls.length).toBeGreaterThan(20);
    expect(unreadable, 'securityChecks calls whose method or url is not a literal').toEqual([]);
    expect(routesWithoutSecurityChecks(ctx.app.routeInventory, calls)).toEqual([]);
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

/** Every description of `other` that still reads as its English counterpart (same place in `en`). */
function untranslatedDescriptions(
  en: unknown,
  other: unknown,
  path = '',
): Array<{ path: string; text: string }> {
  if (Array.isArray(en)) {
    return en.flatMap((item, i) =>
      untranslatedDescriptions(item, (other as unknown[] | undefined)?.[i], `${path}/${i}`),
    );
  }
  if (en === null || typeof en !== 'object') return [];
  const theirs = (other ?? {}) as Record<string, unknown>;
  return Object.entries(en).flatMap(([key, value]) => {
    if (key === 'example' || key === 'examples') return [];
    if (key === 'description' && typeof value === 'string') {
      return theirs[key] === value ? [{ path, text: value }] : [];
    }
    return untranslatedDescriptions(value, theirs[key], `${path}/${key}`);
  });
}

/** Examples that do not validate against the schema they illustrate (JSON Schema 2020-12, as OpenAPI 3.1). */
function exampleMismatches(
  doc: Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> },
) {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const problems: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const body = (op.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined)
        ?.content;
      const responses = (op.responses ?? {}) as Record<
        string,
        { content?: Record<string, Record<string, unknown>> }
      >;
      const media = [
        ...Object.values(body ?? {}).map((m) => ['request', m] as const),
        ...Object.entries(responses).flatMap(([status, r]) =>
          Object.values(r.content ?? {}).map((m) => [status, m] as const),
        ),
      ];
      for (const [where, { schema, example }] of media) {
        // Component references point into the document, registered above as `doc`.
        const source = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
        const validate = compiled.get(source) ?? ajv.compile(JSON.parse(source));
        compiled.set(source, validate);
        if (!validate(example)) {
          problems.push(`${method.toUpperCase()} ${path} ${where}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
  }
  return problems;
}

describe('GET /docs/json in every language', () => {
  type Document = Record<string, unknown> & {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const documentIn = async (lang: string) => (await specIn(lang)) as unknown as Document;
  const operationEntries = (doc: Document) =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );

  it('translates every description in ru and uk, names and identifiers aside', async () => {
    const en = await documentIn('en');
    for (const lang of ['ru', 'uk']) {
      const left = untranslatedDescriptions(en, await documentIn(lang)).filter(
        (item) => !LANGUAGE_NEUTRAL.includes(item.text),
      );
      expect(left, `${lang}: add these texts to the fields of the area's i18n file`).toEqual([]);
    }
  });

  it('gives every response a description of its own status, never "Default Response"', async () => {
    for (const lang of LANGUAGES) {
      const problems: string[] = [];
      for (const { key, op } of operationEntries(await documentIn(lang))) {
        const responses = Object.entries((op.responses ?? {}) as Record<string, { description?: string }>);
        if (!responses.some(([status]) => status.startsWith('2')))
          problems.push(`${key}: no success response`);
        for (const [status, response] of responses) {
          if (!response.description?.trim() || response.description === 'Default Response') {
            problems.push(`${key} ${status}: ${response.description ?? 'no description'}`);
          }
        }
      }
      expect(problems, lang).toEqual([]);
    }
  });

  it('declares 401 on signed-in routes, 403 on permission routes and 404 on routes with a path id', async () => {
    const doc = await documentIn('en');
    const problems: string[] = [];
    for (const route of ctx.app.routeInventory.filter((r) => r.url.startsWith(API_PREFIX) && !r.hidden)) {
      if (route.method === 'HEAD') continue;
      const path = route.url.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}');
      const responses = (doc.paths[path]?.[route.method.toLowerCase()]?.responses ?? {}) as Record<
        string,
        unknown
      >;
      const name = `${route.method} ${route.url}`;
      if (route.auth === 'user' && !responses['401']) problems.push(`${name}: no 401`);
      if (route.permission !== undefined && !responses['403']) problems.push(`${name}: no 403`);
      if (/:id\b/.test(route.url) && !responses['404']) problems.push(`${name}: no 404`);
    }
    expect(problems).toEqual([]);
  });

  it('has an example for every request body and every response body, each matching its schema', async () => {
    const doc = await documentIn('en');
    const problems: string[] = [];
    for (const { key, op } of operationEntries(doc)) {
      const bodies = Object.values(
        (op.requestBody as { content?: Record<string, { example?: unknown }> } | undefined)?.content ?? {},
      );
      const responses = Object.values(
        (op.responses ?? {}) as Record<string, { content?: Record<string, { example?: unknown }> }>,
      );
      const media = [...bodies, ...responses.flatMap((r) => Object.values(r.content ?? {}))];
      if (media.length === 0) problems.push(`${key}: no example at all`);
      for (const item of media)
        if (item.example === undefined) problems.push(`${key}: a body without an example`);
    }
    expect(problems).toEqual([]);
    expect(exampleMismatches(doc)).toEqual([]);
  });

  it('keeps examples and names out of translation: the example bodies are the same in every language', async () => {
    const examplesOf = (doc: Document) =>
      JSON.stringify(
        operationEntries(doc).map(({ op }) => [op.requestBody, op.responses]),
        (key, value) => (key === 'description' && typeof value === 'string' ? undefined : value),
      );
    const en = examplesOf(await documentIn('en'));
    expect(examplesOf(await documentIn('uk'))).toBe(en);
    expect(examplesOf(await documentIn('ru'))).toBe(en);
  });

  it('translates one English text the same way in every area', () => {
    const seen = new Map<string, string>();
    const conflicts: string[] = [];
    for (const area of DOCS_AREAS) {
      for (const [en, text] of Object.entries(area.fields ?? {})) {
        const both = `${text.ru} | ${text.uk}`;
        const earlier = seen.get(en);
        if (earlier !== undefined && earlier !== both) conflicts.push(`${en}: ${earlier} vs ${both}`);
        seen.set(en, both);
        if (text.ru === en || text.uk === en) {
          if (!LANGUAGE_NEUTRAL.includes(en)) conflicts.push(`${en}: translated as itself`);
        }
      }
    }
    expect(conflicts).toEqual([]);
  });
});

describe('GET /docs explorer', () => {
  it('offers the three languages in its top bar and keeps the authorization across reloads', async () => {
    const res = await ctx.app.inject({ url: '/docs/static/swagger-initializer.js' });
    expect(res.statusCode).toBe(200);
    for (const lang of LANGUAGES) expect(res.body).toContain(`/docs/json?lang=${lang}`);
    expect(res.body).toContain('"persistAuthorization":true');
    expect(res.body).toContain('StandaloneLayout');
  });
});
