import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  createDepartment,
  createDocumentRow,
  createKnowledgeBase,
  createNamespace,
  createRole,
  createUser,
} from '../../../test/factories.js';
import { PERMISSIONS } from '../auth/permissions.js';
import { findUnsafeText } from './unsafe-text.js';

/**
 * Every operation of the OpenAPI description, fed generated and malformed
 * input with an admin token and without one: no answer may be a 500, every
 * error must be the envelope, every response must carry X-Request-Id, and
 * every status and JSON body must be one the description declares for the
 * operation. Then each operation with a body or query schema is sent an
 * unknown property and must refuse it with 422. The seed is fixed, so a
 * failure repeats.
 */

type Schema = Record<string, unknown> & { type?: string | string[] };

interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Array<{ in: string; name: string; required?: boolean; schema: Schema }>;
  body?: Schema;
  /** Media types of the request body the operation takes. */
  bodyTypes: string[];
  /** Declared statuses, each with the validator of its JSON body when it declares one. */
  responses: Map<string, ValidateFunction | null>;
}

interface Sample {
  withToken: boolean;
  pathValues: Record<string, string>;
  query: string;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };
}

const SEED = 20_260_704;
const RUNS_PER_OPERATION = 20;
/** Operations that end the caller's session: each of their requests gets a new admin. */
const SESSION_ENDING = new Set(['logoutAll', 'changePassword']);
const ENVELOPE_KEYS = new Set(['error', 'message', 'statusCode', 'details', 'requestId']);
/** The channel A webhook takes the platform's payload and handshake query as the platform sends them. */
const PLATFORM_SHAPED = new Set(['receiveChanAWebhook', 'verifyChanAWebhook']);
const UNKNOWN = 'zzUnknownProperty';

const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udbff\udfff',
  '',
  ' ',
  'x'.repeat(5000),
  '😀'.repeat(3),
  '\u202e\u0301',
  "'; drop table users; --",
  '%00',
  '%ZZ',
  '../../etc/passwd',
  '\r\n',
  'null',
  '-1',
  '1e309',
];
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(1e308, -1e308, 2 ** 63, -0, 0.5, 1e21, true, false, null),
  fc.constantFrom([], {}, [null], { '\u0000': 1 }, { nested: { deeper: ['\u0000', '\ud800'] } }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** Text PostgreSQL refuses: NUL and unpaired surrogates, alone or inside ordinary text. */
const unsafeText = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\u0000'))
  .map(([text, bad]) => `${text}${bad}${text}`);

/** A string without NUL or unpaired surrogates (what a clean value is made of). */
function isStorable(value: unknown): boolean {
  return findUnsafeText(value, 'value').length === 0;
}

/** Strings matching a schema's pattern; fast-check cannot read every regular expression, so plain text then. */
function matching(pattern: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  try {
    return fc
      .stringMatching(new RegExp(pattern, 'u'))
      .filter((text) => text.length >= minLength && text.length <= maxLength);
  } catch {
    return fc.string({ minLength, maxLength });
  }
}

/** `value` with its `pick`-th leaf (modulo their number) replaced by `bad`; an object without leaves gets a key. */
function replaceLeaf(value: unknown, pick: number, bad: unknown): unknown {
  const leaves: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, item] of Object.entries(node)) {
      const parent = node as Record<string, unknown>;
      if (typeof item === 'object' && item !== null && Object.keys(item).length > 0) walk(item);
      else leaves.push([parent, Array.isArray(node) ? Number(key) : key]);
    }
  };
  const copy = structuredClone(value);
  walk(copy);
  const leaf = leaves[pick % Math.max(leaves.length, 1)];
  if (leaf) (leaf[0] as Record<string | number, unknown>)[leaf[1]] = bad;
  else if (typeof copy === 'object' && copy !== null) (copy as Record<string, unknown>).added = bad;
  else return bad;
  return copy;
}

/** Path segments that are not a valid value: bad percent-encodings, over-long values, NUL. */
const BAD_SEGMENTS = ['%ZZ', '%', '%E0%A4%A', '%00', '%ED%A0%80', 'a'.repeat(101), `${'b'.repeat(300)}%00`];

/** Percent-encodes like encodeURIComponent, but never throws on an unpaired surrogate. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

/**
 * `rows` maps a path prefix (`/departments`) to the id of a real row of that
 * resource: a path id is mostly that one, so requests get past "not found"
 * into the services; other ids and random UUIDs keep the misses covered.
 */
function createArbitraries(rows: Record<string, string>) {
  const ids = Object.values(rows);
  const uuid = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: fc.uuid() },
  );
  const idFor = (path: string): fc.Arbitrary<string> => {
    const own = Object.entries(rows).find(([prefix]) => path.startsWith(prefix))?.[1];
    return own ? fc.oneof({ weight: 4, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: uuid }) : uuid;
  };

  /** A value of `schema`'s shape, where any node may instead be hostile (never when `clean`). */
  function value(schema: Schema, depth = 0, clean = false): fc.Arbitrary<unknown> {
    if (clean) return shaped(schema, depth, true);
    return fc.oneof({ weight: 5, arbitrary: shaped(schema, depth) }, { weight: 1, arbitrary: hostileValue });
  }

  /** A well-formed value with exactly one leaf (or one added key) made hostile: reaches past validation. */
  function oneBadLeaf(schema: Schema): fc.Arbitrary<unknown> {
    return fc
      .tuple(shaped(schema, 0, true), fc.nat(), fc.oneof(unsafeText, hostileValue))
      .map(([clean, pick, bad]) => replaceLeaf(clean, pick, bad));
  }

  function shaped(schema: Schema, depth: number, clean = false): fc.Arbitrary<unknown> {
    const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (variants) return fc.oneof(...variants.map((s) => shaped(s, depth, clean)));
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        return stringOf(schema);
      case 'integer':
        return fc.integer({
          min: (schema.minimum as number | undefined) ?? -1_000_000,
          max: (schema.maximum as number | undefined) ?? 1_000_000,
        });
      case 'number':
        return fc.double({
          min: (schema.minimum as number | undefined) ?? -1e6,
          max: (schema.maximum as number | undefined) ?? 1e6,
          noNaN: true,
        });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(value((schema.items as Schema | undefined) ?? {}, depth + 1, clean), { maxLength: 3 });
      case 'object':
        return objectOf(schema, depth, clean);
      default:
        return clean ? fc.jsonValue({ maxDepth: 1 }).filter(isStorable) : fc.jsonValue({ maxDepth: 2 });
    }
  }

  function stringOf(schema: Schema): fc.Arbitrary<string> {
    const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, 40);
    const minLength = Math.min((schema.minLength as number | undefined) ?? 0, maxLength);
    switch (schema.format) {
      case 'uuid':
        return uuid;
      case 'email':
        return fc.emailAddress();
      case 'date-time':
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'uri':
        return fc.constantFrom('https://example.test/page', 'http://127.0.0.1:1/x', 'ftp://nope');
      default:
        return typeof schema.pattern === 'string'
          ? matching(schema.pattern, minLength, maxLength)
          : fc.string({ minLength, maxLength }).filter(isStorable);
    }
  }

  function objectOf(schema: Schema, depth: number, clean: boolean): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (depth > 3 || Object.keys(properties).length === 0) {
      return clean
        ? fc.dictionary(
            fc.string({ minLength: 1, maxLength: 10 }).filter(isStorable),
            fc.jsonValue({ maxDepth: 1 }),
            {
              maxKeys: 3,
            },
          )
        : fc.dictionary(fc.string(), hostileValue);
    }
    const fields = Object.fromEntries(
      Object.entries(properties).map(([k, s]) => [k, value(s, depth + 1, clean)]),
    );
    // Mostly with the required fields, sometimes with any of them missing.
    const record = fc.oneof(
      { weight: 3, arbitrary: fc.record(fields, { requiredKeys: (schema.required as string[]) ?? [] }) },
      { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    );
    if (clean) return fc.record(fields, { requiredKeys: (schema.required as string[]) ?? [] });
    return fc.oneof(
      { weight: 4, arbitrary: record },
      {
        weight: 1,
        arbitrary: fc.tuple(record, hostileValue).map(([r, extra]) => ({ ...(r as object), extra })),
      },
    );
  }

  function pathValue(path: string, name: string, schema: Schema): fc.Arbitrary<string> {
    let good = shaped(schema, 0).map(String);
    if (name === 'permission') good = fc.oneof(fc.constantFrom(...PERMISSIONS), uuid);
    else if (schema.format === 'uuid') good = idFor(path);
    return fc.oneof(
      { weight: 6, arbitrary: good.map(encode) },
      { weight: 2, arbitrary: fc.constantFrom(...BAD_SEGMENTS) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map(encode) },
    );
  }

  function queryOf(parameters: Operation['parameters']): fc.Arbitrary<string> {
    const pairs = parameters
      .filter((p) => p.in === 'query')
      .map((p) =>
        fc.option(value(p.schema), { nil: undefined }).map((v) => {
          if (v === undefined) return '';
          const text = typeof v === 'string' ? v : JSON.stringify(v);
          return `${encode(p.name)}=${encode(text ?? '')}`;
        }),
      );
    const extra = fc.constantFrom('', '', 'extra=%00', 'limit=1&limit=2', 'search=%ZZ', 'a[b]=1');
    return fc
      .tuple(fc.tuple(...pairs), extra)
      .map(([parts, more]) => [...parts, more].filter(Boolean).join('&'));
  }

  function sampleOf(operation: Operation): fc.Arbitrary<Sample> {
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const body: fc.Arbitrary<Sample['body']> = operation.body
      ? fc.oneof(
          { weight: 4, arbitrary: value(operation.body).map((v) => ({ kind: 'json' as const, value: v })) },
          {
            weight: 4,
            arbitrary: oneBadLeaf(operation.body).map((v) => ({ kind: 'json' as const, value: v })),
          },
          { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
          {
            weight: 1,
            arbitrary: fc
              .constantFrom('{"a":', '[1,2', 'null', '"\\u0000"', '{"__proto__":{"x":1}}')
              .map((text) => ({ kind: 'raw' as const, text })),
          },
        )
      : fc.oneof(
          fc.constant({ kind: 'none' as const }),
          fc.constant({ kind: 'json' as const, value: { x: '\u0000' } }),
        );
    return fc.record({
      withToken: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
      pathValues: fc.record(
        Object.fromEntries(pathParams.map((p) => [p.name, pathValue(operation.path, p.name, p.schema)])),
      ),
      query: queryOf(operation.parameters),
      body,
    });
  }

  /** One well-formed value of `schema`, the same each time. */
  function cleanValue(schema: Schema, seed: number): unknown {
    return fc.sample(shaped(schema, 0, true), { seed, numRuns: 1 })[0];
  }

  return { sampleOf, cleanValue };
}

type Spec = { paths: Record<string, Record<string, Record<string, unknown>>> };

/** A JSON pointer segment (`/` and `~` escaped). */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The operations of the served OpenAPI description, with their (inline)
 * request schemas and a validator per declared JSON response, compiled from
 * the document itself so that `$ref`s to its components resolve.
 */
function operationsOf(spec: Spec): Operation[] {
  const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(spec, 'openapi');
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
        ?.content;
      const responses = new Map<string, ValidateFunction | null>();
      const declared = (op.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
      for (const [status, response] of Object.entries(declared)) {
        const json = response.content?.['application/json'];
        const ref = `openapi#/paths/${pointer(path)}/${method}/responses/${status}/content/application~1json/schema`;
        responses.set(status, json ? ajv.compile({ $ref: ref }) : null);
      }
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId as string,
        parameters: (op.parameters as Operation['parameters'] | undefined) ?? [],
        body: content?.['application/json']?.schema,
        bodyTypes: Object.keys(content ?? {}),
        responses,
      });
    }
  }
  return operations;
}

/** What is wrong with a response against the description: an undeclared status, or a JSON body off its schema. */
function conformanceProblemOf(operation: Operation, res: LightMyRequestResponse): string | null {
  const status = String(res.statusCode);
  if (!operation.responses.has(status)) return `status ${status} is not declared`;
  const validate = operation.responses.get(status);
  const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
  if (!isJson) return null;
  if (!validate) return `status ${status} declares no JSON body`;
  if (validate(res.json())) return null;
  const [first] = validate.errors ?? [];
  return `body does not match the declared schema of ${status}: ${first?.instancePath || '/'} ${first?.message}`;
}

/**
 * What is wrong with a response, or null: a 500, an error outside the
 * envelope, no request id. (Another 5xx must be one the operation declares,
 * such as 501 or 503: conformanceProblemOf checks that.)
 */
function problemOf(res: LightMyRequestResponse): string | null {
  if (!res.headers['x-request-id']) return 'no X-Request-Id header';
  if (res.statusCode === 500) return `status ${res.statusCode}`;
  if (res.statusCode < 400) return null;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return 'error body is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'error body is not an object';
  const envelope = body as Record<string, unknown>;
  const stray = Object.keys(envelope).filter((key) => !ENVELOPE_KEYS.has(key));
  if (stray.length > 0) return `error body has ${stray.join(', ')}`;
  if (typeof envelope.error !== 'string' || !/^[A-Z][A-Za-z]*Error$/.test(envelope.error)) {
    return 'error is not a class name';
  }
  if (typeof envelope.message !== 'string' || envelope.message.length === 0) return 'no message';
  if (envelope.statusCode !== res.statusCode) return 'statusCode differs from the status';
  return null;
}

const ctx = useTestApp();
let operations: Operation[];
let arbitraries: ReturnType<typeof createArbitraries>;

beforeAll(async () => {
  const { container } = ctx;
  const department = await createDepartment(container);
  const victim = await createUser(container, { departmentId: department.id });
  const role = await createRole(container, { permissions: ['canViewKnowledge'] });
  const base = await createKnowledgeBase(container, { departmentId: department.id });
  const document = await createDocumentRow(container, {
    knowledgeBaseId: base.id,
    departmentId: department.id,
  });
  const namespace = await createNamespace(container, { departmentId: department.id });
  const template = await container.documentTemplates.repositories.templates.insert({
    namespaceId: namespace.id,
    departmentId: department.id,
    name: 'Letter',
    templateBody: '# Letter\n\nDear {{name}}',
    variables: [{ name: 'name', label: 'Name', type: 'string', required: false, default: null }],
  });
  arbitraries = createArbitraries({
    '/departments': department.id,
    '/roles': role.id,
    '/users': victim.user.id,
    '/employees': victim.user.id,
    '/knowledge/bases': base.id,
    '/knowledge/documents': document.id,
    '/namespaces': namespace.id,
    '/document-templates': template.id,
  });
  operations = operationsOf((await ctx.app.inject({ url: '/docs/json' })).json());
});

describe('every operation of the OpenAPI description, fuzzed', () => {
  it('covers the documented operations', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.map((o) => o.operationId)).toContain('createDepartment');
    // Each operation declares JSON bodies for its answers, so the conformance check has schemas to hold them to.
    for (const operation of operations) {
      expect([...operation.responses.values()].some(Boolean), operation.operationId).toBe(true);
    }
  });

  it('answers no 500, only enveloped and declared answers matching their schemas, and X-Request-Id everywhere', async () => {
    const failures: string[] = [];
    for (const [index, operation] of operations.entries()) {
      const samples = fc.sample(arbitraries.sampleOf(operation), {
        seed: SEED + index,
        numRuns: RUNS_PER_OPERATION,
      });
      let admin = await createUser(ctx.container, { role: 'admin' });
      for (const sample of samples) {
        if (SESSION_ENDING.has(operation.operationId))
          admin = await createUser(ctx.container, { role: 'admin' });
        const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => sample.pathValues[name] ?? '');
        const url = `/api/v1${path}${sample.query ? `?${sample.query}` : ''}`;
        const headers: Record<string, string> = sample.withToken ? { ...admin.headers } : {};
        let payload: string | undefined;
        if (sample.body.kind !== 'none') {
          headers['content-type'] = 'application/json';
          payload = sample.body.kind === 'raw' ? sample.body.text : JSON.stringify(sample.body.value);
        }
        const res = await ctx.app.inject({ method: operation.method as 'GET', url, headers, payload });
        const problem = problemOf(res) ?? conformanceProblemOf(operation, res);
        if (problem) {
          failures.push(
            `${operation.operationId}: ${operation.method} ${url.slice(0, 200)} body=${(payload ?? '').slice(0, 200)} → ${problem}: ${res.body.slice(0, 200)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses an unknown body property and an unknown query parameter with 422 naming it', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const failures: string[] = [];
    const checked = { body: 0, query: 0 };
    for (const [index, operation] of operations.entries()) {
      if (PLATFORM_SHAPED.has(operation.operationId)) continue;
      const path = operation.parameters
        .filter((p) => p.in === 'path')
        .reduce((url, p) => {
          const value =
            p.name === 'permission' ? 'canApprove' : String(arbitraries.cleanValue(p.schema, SEED + index));
          return url.replace(`{${p.name}}`, encodeURIComponent(value));
        }, operation.path);
      const expectRefused = async (part: 'body' | 'querystring', url: string, payload?: unknown) => {
        const res = await ctx.app.inject({
          method: operation.method as 'GET',
          url,
          headers: admin.headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        const body = res.statusCode === 422 ? res.json() : null;
        const fields = ((body?.details ?? []) as Array<{ field: string }>).map((d) => d.field);
        if (body?.error !== 'ValidationError' || !fields.includes(`${part}.${UNKNOWN}`)) {
          failures.push(`${operation.operationId} ${part}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        }
      };
      if (operation.parameters.some((p) => p.in === 'query')) {
        checked.query++;
        await expectRefused('querystring', `/api/v1${path}?${UNKNOWN}=1`);
      }
      if (operation.body && operation.bodyTypes.includes('application/json')) {
        const clean = arbitraries.cleanValue(operation.body, SEED + index);
        if (typeof clean === 'object' && clean !== null && !Array.isArray(clean)) {
          checked.body++;
          await expectRefused('body', `/api/v1${path}`, { ...clean, [UNKNOWN]: 1 });
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked.body).toBeGreaterThan(20);
    expect(checked.query).toBeGreaterThan(15);
  }, 60_000);
});
