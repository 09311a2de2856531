import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

type Directives = Record<string, string[]>;

/** Directives every policy ends with: no framing, no `<base>` or form posts elsewhere, no plugins. */
const LOCKED: Directives = {
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

/**
 * The Content-Security-Policy of each kind of response (docs/security.md).
 *
 * - `api`: everything but the pages below: JSON, avatars, errors, and the
 *   generated HTML and Markdown documents. Nothing may load or run, and a
 *   document opened in a tab is sandboxed (a unique origin, no scripts).
 * - `console`: the approver console, a Vite build with no inline script or
 *   style: its own files, avatars, `data:` for the empty favicon, and fetch
 *   and WebSocket calls to this origin.
 * - `docs`: Swagger UI at /docs: its own files; inline styles, which it sets
 *   while rendering; `data:` images and fonts of its stylesheet.
 * - `queueBoard`: the queue dashboard: its own files; the inline styles of
 *   its loading screen. Its web fonts from a third party are not loaded.
 */
const DOCS: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  ...LOCKED,
};

export const CSP = {
  api: { 'default-src': ["'none'"], ...LOCKED, sandbox: [] },
  console: {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    ...LOCKED,
  },
  docs: DOCS,
  // What Swagger UI needs; the dashboard also sets `<base href>` to its own path.
  queueBoard: { ...DOCS, 'base-uri': ["'self'"] },
} satisfies Record<string, Directives>;

/** The same headers on every response; only the CSP differs by area. */
const COMMON = {
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // The service speaks HTTP behind a TLS terminator; browsers heed this only over HTTPS.
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
} as const;

type HeaderSet = Record<string, string>;

/**
 * The headers helmet sets for `directives`, computed once: helmet writes them
 * onto a response, so a recorder stands in for one.
 */
function headerSet(directives: Directives): HeaderSet {
  const headers: HeaderSet = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const middleware = helmet({ ...COMMON, contentSecurityPolicy: { useDefaults: false, directives } });
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

const DEFAULT_HEADERS = headerSet(CSP.api);

/** Sets the default (API) security headers; for replies no hook reaches, such as router errors. */
export function applySecurityHeaders(reply: FastifyReply): void {
  reply.headers(DEFAULT_HEADERS);
}

/**
 * Security headers on every response (helmet's set: nosniff, DENY framing,
 * no referrer, HSTS, cross-origin isolation headers), with the CSP of the
 * area whose path prefix the URL starts with, else the strict API policy.
 * Set in `onRequest`, so errors, 404s and static files carry them too.
 */
export function registerSecurityHeaders(app: FastifyInstance, areas: Record<string, Directives>): void {
  const byPrefix = Object.entries(areas).map(([prefix, directives]) => ({
    prefix,
    headers: headerSet(directives),
  }));
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const area = byPrefix.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
    reply.headers(area?.headers ?? DEFAULT_HEADERS);
  });
}
