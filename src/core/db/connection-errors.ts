/**
 * SQLSTATE classes and codes that mean the connection, not the statement,
 * failed: the same statement succeeds on a new connection a moment later.
 * 08: connection exception; 57P01–57P03: the server is shutting down, was
 * told to end the connection (pg_terminate_backend), or is starting.
 */
const CONNECTION_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** What node-postgres says when a connection ends under a query or a pooled client is no longer usable. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * Whether `error` (or an error it wraps, as Drizzle's "Failed query" does in
 * `cause`) is a lost database connection rather than a failing statement:
 * work that hit it should be tried again, not failed for good.
 */
export function isConnectionError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (!(current instanceof Error)) return false;
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (code.startsWith('08') || CONNECTION_SQLSTATES.has(code) || NETWORK_CODES.has(code))
    )
      return true;
    if (CONNECTION_MESSAGES.some((text) => current instanceof Error && current.message.includes(text)))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
