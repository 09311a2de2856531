import type { FastifyCorsOptions } from '@fastify/cors';

/**
 * Headers a browser page on an allowed origin may read: downloads' file
 * names, generated documents' ids, the request id for support, and when to
 * retry after a 429 or 503.
 */
const EXPOSED_HEADERS = ['Content-Disposition', 'X-Generation-Id', 'X-Request-Id', 'Retry-After'];

/**
 * The @fastify/cors options for CORS_ORIGIN, or null when CORS is off (no
 * origins listed): then no response carries CORS headers and an OPTIONS
 * request is answered like any method the path lacks (405, or 404).
 *
 * - A list: a listed Origin is echoed with credentials allowed; any other
 *   origin gets no CORS header at all, and its preflight the same 405/404.
 * - `*`: any origin may read answers, never with credentials (the browser
 *   sends no cookie or Authorization it was not told to, and none is allowed).
 *
 * A preflight is answered 204 even without Access-Control-Request-Method
 * (not strict): the alternative is a plain-text 400 outside the envelope.
 */
export function corsOptions(origins: readonly string[] | '*'): FastifyCorsOptions | null {
  const common = { exposedHeaders: EXPOSED_HEADERS, strictPreflight: false } as const;
  if (origins === '*') return { ...common, origin: '*', credentials: false };
  if (origins.length === 0) return null;
  const listed = new Set(origins);
  return {
    ...common,
    credentials: true,
    // false for an unlisted origin: @fastify/cors then adds no header and takes no preflight.
    origin: (origin, callback) => callback(null, origin !== undefined && listed.has(origin) ? origin : false),
  };
}
