/**
 * Deterministic example values for the served OpenAPI description, made from
 * the JSON schemas themselves so every operation shows a body without anyone
 * writing one by hand. The same schema always gives the same example (no
 * randomness, no clock), so the document is stable between requests and
 * releases. Hand-written overrides live in the i18n tables.
 */

type Schema = Record<string, unknown>;
export type SchemaComponents = Record<string, Schema>;

const MAX_DEPTH = 10;
const DATE_TIME = '2025-03-14T09:30:00.000Z';

/** Plausible values by property name, tried before the type's generic value. */
const STRING_HINTS: Record<string, string> = {
  email: 'olena.koval@example.com',
  password: 'Correct-horse-42',
  currentpassword: 'Old-horse-41',
  newpassword: 'Correct-horse-42',
  name: 'Customer support',
  slug: 'support',
  title: 'Refund policy',
  description: 'Answers customer questions about orders and refunds',
  color: '#2f80ed',
  phone: '380501234567',
  role: 'employee',
  escalatetorole: 'dept_head',
  language: 'uk',
  url: 'https://example.com/help/refunds',
  originalurl: 'https://example.com/help/refunds',
  avatarurl: '/static/avatars/3fa85f64-5717-4562-b3fc-2c963f66afa6.png?v=1',
  token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZmE4NWY2NCJ9.c2lnbmF0dXJl',
  message: 'How long does a refund take?',
  answer: 'Refunds reach your card within 14 days of the return.',
  reply: 'Refunds reach your card within 14 days of the return.',
  text: 'How long does a refund take?',
  exampletext: 'I want my money back',
  phrase: 'I want my money back',
  intentname: 'refund_request',
  summary: 'Handles refunds for the online shop; prefers short answers',
  currentproject: 'Spring sale',
  frequentintent: 'refund_request',
  ipaddress: '203.0.113.7',
  database: 'ok',
  queue: 'ok',
  llm: 'configured',
  en: 'Approve replies',
  ru: 'Утверждать ответы',
  uk: 'Затверджувати відповіді',
  content: 'Refunds reach your card within 14 days of the return.',
  systemprompt: 'You answer customer questions politely, only from the knowledge base.',
  search: 'sup',
  status: 'ready',
  type: 'pdf',
  mimetype: 'application/pdf',
  filename: 'refund-policy.pdf',
  action: 'update',
  entitytype: 'users',
  method: 'PATCH',
  path: '/api/v1/users/3fa85f64-5717-4562-b3fc-2c963f66afa6',
  ip: '203.0.113.7',
  useragent: 'Mozilla/5.0',
  version: '0.1.0',
  permission: 'canApprove',
  key: 'canApprove',
  group: 'approvals',
  label: 'Approve replies',
  tone: 'Friendly and brief',
  boundary: 'Legal advice',
  accesslevel: 'standard',
  intent: 'refund_request',
  project: 'Spring sale',
};

const NUMBER_HINTS: Record<string, number> = {
  total: 1,
  limit: 20,
  offset: 0,
  sizebytes: 48213,
  uptimesec: 3600,
  position: 0,
  index: 0,
  page: 1,
  score: 0.82,
  confidence: 0.82,
};

/** Hints by how a name ends (`userEmail`, `extraPermissions` items, `entityId`), after the exact names. */
const SUFFIX_HINTS: Array<[string, (name: string) => string]> = [
  ['email', () => STRING_HINTS.email as string],
  ['permission', () => 'canApprove'],
  ['id', (name) => uuidFor(name)],
  ['name', () => PERSON_NAME],
  ['url', () => STRING_HINTS.url as string],
  ['at', () => DATE_TIME],
];

const PERSON_NAME = 'Olena Koval';

/** Fixed strings that satisfy common patterns when the hint does not. */
const PATTERN_CANDIDATES = ['support', 'employee', '#2f80ed', '380501234567', 'uk', 'en-GB', 'a1'];

/** A stable UUID made from a name, so `departmentId` is the same value everywhere it appears. */
function uuidFor(name: string): string {
  let hash = 0x811c9dc5;
  let hex = '';
  for (let round = 0; hex.length < 32; round++) {
    for (const char of `${name}#${round}`) {
      hash ^= char.charCodeAt(0);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    hex += hash.toString(16).padStart(8, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function resolve(schema: Schema, components: SchemaComponents): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').pop() ?? '';
  return components[name] ?? {};
}

function fitLength(value: string, schema: Schema): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  let result = value;
  while (result.length < min) result += value || 'x';
  return result.slice(0, max);
}

function matches(value: string, schema: Schema): boolean {
  if (typeof schema.pattern !== 'string') return true;
  try {
    return new RegExp(schema.pattern, 'u').test(value);
  } catch {
    return true;
  }
}

function exampleString(schema: Schema, name: string): string {
  switch (schema.format) {
    case 'uuid':
      return uuidFor(name || 'id');
    case 'email':
      return STRING_HINTS.email as string;
    case 'date-time':
      return DATE_TIME;
    case 'date':
      return DATE_TIME.slice(0, 10);
    case 'uri':
    case 'url':
      return STRING_HINTS.url as string;
  }
  const lower = name.toLowerCase();
  const suffix = SUFFIX_HINTS.find(([end]) => lower.endsWith(end) && lower !== end)?.[1](name);
  const patterned = typeof schema.pattern === 'string' ? PATTERN_CANDIDATES : [];
  const candidates = [STRING_HINTS[lower], suffix, ...patterned, 'example text'].filter(
    (c): c is string => c !== undefined,
  );
  for (const candidate of candidates) {
    const fitted = fitLength(candidate, schema);
    if (matches(fitted, schema)) return fitted;
  }
  return fitLength('example text', schema);
}

function exampleNumber(schema: Schema, name: string, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const hint = NUMBER_HINTS[name.toLowerCase()];
  if (hint !== undefined && (min === undefined || hint >= min) && (max === undefined || hint <= max)) {
    return integer ? Math.round(hint) : hint;
  }
  if (min !== undefined && max !== undefined) {
    const middle = (min + max) / 2;
    return integer ? Math.floor(middle) : middle;
  }
  if (min !== undefined) return Math.max(min, 1);
  if (max !== undefined) return Math.min(max, 1);
  return 1;
}

/** The item name of an array property: `permissions` → `permission`, `departmentIds` → `departmentId`. */
function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

/**
 * An example value for `schema`: its own example, const, default or first
 * enum value when it has one; otherwise a value built from the type, the
 * format and the property `name` (see the hint tables).
 */
export function exampleFor(input: Schema, components: SchemaComponents, name = '', depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  const schema = resolve(input, components);
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];

  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants)) {
    const chosen = variants.find((v) => resolve(v, components).type !== 'null') ?? variants[0];
    return chosen ? exampleFor(chosen, components, name, depth + 1) : null;
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign(
      {},
      ...(schema.allOf as Schema[]).map((part) => exampleFor(part, components, name, depth + 1)),
    );
  }

  if (schema.type === 'null') return null;
  const types = [schema.type].flat().filter((t) => t !== 'null');
  const type = types[0] ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'string':
      return exampleString(schema, name);
    case 'integer':
      return exampleNumber(schema, name, true);
    case 'number':
      return exampleNumber(schema, name, false);
    case 'boolean':
      return name === 'ok' || name === 'isActive';
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      const item = exampleFor(items, components, singular(name), depth + 1);
      return Array.from({ length: count }, () => item);
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      // An object with an email is a person: its name is a person's name, not a department's.
      const person = 'email' in properties;
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [
          key,
          person && key === 'name' ? PERSON_NAME : exampleFor(value, components, key, depth + 1),
        ]),
      );
    }
    default:
      // An untyped schema (free-form JSON): an empty object shows the shape without guessing.
      return {};
  }
}
