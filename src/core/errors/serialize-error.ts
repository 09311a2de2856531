/**
 * Properties of database and validation errors that carry the values of a
 * request or a query (a password hash, an email, a whole failing row): never
 * logged. `query` (the SQL text with placeholders), `code`, `constraint`,
 * `table` and the message are kept, which is what a reader needs.
 */
const DROPPED_KEYS = new Set([
  'params',
  'parameters',
  'values',
  'detail',
  'where',
  'queryOptions',
  'validation',
  'raw',
  'cause',
  'errors',
]);

/** Drizzle writes the parameters into its message (`Failed query: …\nparams: …`), and so into the stack. */
const PARAMS_IN_TEXT = /\nparams: [\s\S]*?(?=\n {4}at |\ncaused by: |$)/g;
const MAX_DEPTH = 5;

function scrub(text: unknown): unknown {
  return typeof text === 'string' ? text.replace(PARAMS_IN_TEXT, '\nparams: [omitted]') : text;
}

function isErrorLike(value: unknown): value is Error & Record<string, unknown> {
  return (
    value instanceof Error ||
    (typeof value === 'object' && value !== null && typeof (value as Error).message === 'string')
  );
}

/**
 * pino's `err` serializer, minus query parameters: type, message and stack
 * (parameters cut out), the error's own fields except those that hold values,
 * and its cause and aggregated errors serialized the same way.
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!isErrorLike(err)) return err;
  const out: Record<string, unknown> = {
    type: err.constructor?.name ?? err.name,
    message: scrub(err.message),
    stack: scrub(err.stack),
  };
  for (const key of Object.keys(err)) {
    if (DROPPED_KEYS.has(key) || key in out) continue;
    const value = err[key];
    if (typeof value === 'function') continue;
    out[key] = isErrorLike(value) && depth < MAX_DEPTH ? serializeError(value, depth + 1) : value;
  }
  if (depth < MAX_DEPTH) {
    if (err.cause !== undefined) out.cause = serializeError(err.cause, depth + 1);
    if (Array.isArray(err.errors)) {
      out.aggregateErrors = err.errors.map((inner: unknown) => serializeError(inner, depth + 1));
    }
  }
  return out;
}
