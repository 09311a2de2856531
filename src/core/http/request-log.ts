import type { FastifyInstance } from 'fastify';

/**
 * One log line per request, written when the response has gone out: request
 * id (the logger's `reqId` binding), method, path, status and time in
 * milliseconds. It replaces Fastify's own pair of lines (build the app with
 * `disableRequestLogging: true`), which serialise the request and response
 * objects twice per request. The query string is left out: it can carry
 * verification tokens (webhook handshakes), and the path is what an operator
 * searches for.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request for a line of logging.
  app.addHook('onResponse', (request, reply, done) => {
    const query = request.url.indexOf('?');
    request.log.info(
      {
        method: request.method,
        path: query === -1 ? request.url : request.url.slice(0, query),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}
