import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ForbiddenError, UnauthorizedError } from '../errors/app-errors.js';
import type { TokenCookie } from '../http/route-config.js';
import type { Actor } from './actor.js';
import type { TokenClaims, TokenService } from './jwt.js';
import type { Permission } from './permissions.js';

export interface AuthPluginOptions {
  tokens: TokenService;
  /** Loads the user behind a token; null when the user is gone, inactive, or the token is stale. */
  resolveActor(claims: TokenClaims): Promise<Actor | null>;
  /** Paths served by plugins (docs, static files) that are public by design. */
  publicPrefixes: readonly string[];
}

/**
 * Holds every route to an explicit `config.auth` (boot fails otherwise),
 * authenticates `auth: 'user'` routes, and checks `config.permission`.
 * Department scope and ownership are the services' job.
 */
async function authPlugin(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (auth === 'none' || auth === 'user') return;
    if (options.publicPrefixes.some((prefix) => route.url.startsWith(prefix))) return;
    throw new Error(`Route ${String(route.method)} ${route.url} has no config.auth ('none' or 'user')`);
  });

  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.auth !== 'user') return;
    request.actor = await authenticate(request, options);
    const required = request.routeOptions.config.permission;
    if (required) assertPermission(request.actor, required);
  });
}

/**
 * The actor behind a request's bearer token, or, without an Authorization header, behind the
 * route's token cookie when it declares one; 401 for anything short of a current, active user.
 */
export async function authenticate(
  request: Pick<FastifyRequest, 'headers'>,
  options: Pick<AuthPluginOptions, 'tokens' | 'resolveActor'>,
): Promise<Actor> {
  const header = request.headers.authorization;
  const cookie = header ? undefined : tokenCookieOf(request);
  if (cookie) return actorOf(cookie.verifier.verify(cookie.token), options);
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) throw new UnauthorizedError('Missing bearer token');
  return actorOf(options.tokens.verify(match[1]), options);
}

/** The token of the route's token cookie (config.tokenCookie), when the request carries one. */
function tokenCookieOf(
  request: Pick<FastifyRequest, 'headers'> & { routeOptions?: FastifyRequest['routeOptions'] },
): { token: string; verifier: TokenCookie } | undefined {
  const verifier = request.routeOptions?.config?.tokenCookie;
  const header = request.headers.cookie;
  if (!verifier || !header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === verifier.name) {
      const token = part.slice(eq + 1).trim();
      return token ? { token, verifier } : undefined;
    }
  }
  return undefined;
}

async function actorOf(
  claims: TokenClaims | null,
  options: Pick<AuthPluginOptions, 'resolveActor'>,
): Promise<Actor> {
  if (!claims) throw new UnauthorizedError('Invalid or expired token');
  const actor = await options.resolveActor(claims);
  if (!actor) throw new UnauthorizedError('Token is no longer valid');
  return actor;
}

function assertPermission(actor: Actor, required: Permission | readonly Permission[]): void {
  const anyOf: readonly Permission[] = typeof required === 'string' ? [required] : required;
  if (!anyOf.some((p) => actor.permissions.has(p))) {
    throw new ForbiddenError(`Missing permission: ${anyOf.join(' or ')}`);
  }
}

export default fp(authPlugin, { name: 'auth' });
