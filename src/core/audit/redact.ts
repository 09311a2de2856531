import { stripUnsafeText } from '../http/unsafe-text.js';

/** What replaces a secret in an audit entry. */
export const REDACTED = '[REDACTED]';

/**
 * Keys whose values never reach the audit log: the rule names password,
 * token and secret; API keys, private keys, credentials and authorization
 * headers are the same kind of value under other names.
 */
const SECRET_KEY = /password|token|secret|authorization|api[-_]?key|private[-_]?key|credential/i;

/** Strings longer than this are cut, so one large body cannot bloat the log. */
export const MAX_STRING_LENGTH = 10_000;
const MAX_DEPTH = 20;
const MAX_KEY_LENGTH = 200;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * `text` as the audit log can always store it: at most `max` characters,
 * without NUL characters or unpaired surrogates (PostgreSQL refuses both, and
 * a cut can split a surrogate pair), so user input never fails the write.
 */
export function auditText(text: string, max = MAX_STRING_LENGTH): string {
  const cut = text.length > max ? `${text.slice(0, max)}…[truncated]` : text;
  return stripUnsafeText(cut);
}

/**
 * A copy of `value` fit for the audit log: every property whose key looks
 * secret (at any depth, in objects and in arrays of objects) becomes
 * "[REDACTED]", strings and keys are made storable (`auditText`), long
 * strings are truncated and binary data is replaced by its size. The input
 * is never modified.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return auditText(value);
  if (typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
  if (depth >= MAX_DEPTH) return '[TRUNCATED]';
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `[binary ${value.byteLength} bytes]`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[auditText(key, MAX_KEY_LENGTH)] = isSecretKey(key) ? REDACTED : redactSecrets(item, depth + 1);
  }
  return result;
}
