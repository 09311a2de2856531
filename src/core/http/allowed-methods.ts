import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';

/** The methods a 405's `Allow` header may list, in the order it lists them. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;

/** What the not-found handler asks: which methods the path of a request has. */
export type AllowedMethods = (url: string) => string[];

/**
 * Keeps a second router beside Fastify's, holding every route's path and
 * method, so that a request Fastify found no route for can be told apart:
 * a known path with another method (405 with `Allow`) or no such path (404).
 * Fastify's own router answers neither question from outside.
 *
 * The catch-all `OPTIONS *` of CORS preflights is left out: it matches every
 * path and would turn every unknown path into a 405. Path parameters of any
 * length match here, so an over-long one still names a known path.
 */
export function trackAllowedMethods(app: FastifyInstance): AllowedMethods {
  const router = FindMyWay({ maxParamLength: 10_000 });
  const noop = () => undefined;
  app.addHook('onRoute', (route) => {
    if (route.url === '*' || route.url === '/*') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (!router.hasRoute(method as 'GET', route.url)) router.on(method as 'GET', route.url, noop);
    }
  });
  return (url) => {
    const path = url.split('?')[0] ?? '/';
    return METHODS.filter((method) => {
      try {
        return router.find(method, path) !== null;
      } catch {
        // A malformed percent-encoding: no path is known by that name.
        return false;
      }
    });
  };
}
