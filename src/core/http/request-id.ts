import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming X-Request-Id may be: short, and safe to echo in a header and a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request id: the caller's `X-Request-Id` when it is 1 to 64 characters
 * of letters, digits, dot, underscore and hyphen (so a proxy's id follows the
 * request through our logs), otherwise a new UUID.
 */
export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Every response carries `X-Request-Id`. Set in the first onRequest hook, so
 * it is there before authentication, routing misses or any error can answer.
 */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
