import type { FastifyInstance } from 'fastify';

export interface RouteRecord {
  method: string;
  url: string;
  auth: 'none' | 'user' | undefined;
  permission: unknown;
  tags: readonly string[];
  operationId: string | undefined;
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the inventory, for start-up logs and the route inventory test. */
    routeInventory: RouteRecord[];
  }
}

/** Records each route as it is added; register before any route. */
export function registerRouteInventory(app: FastifyInstance): void {
  const records: RouteRecord[] = [];
  app.decorate('routeInventory', records);
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as { tags?: string[]; operationId?: string; hide?: boolean };
    for (const method of [route.method].flat()) {
      records.push({
        method: String(method),
        url: route.url,
        auth: route.config?.auth,
        permission: route.config?.permission,
        tags: schema.tags ?? [],
        operationId: schema.operationId,
        hidden: schema.hide === true,
      });
    }
  });
}

/** The endpoint a `securityChecks(…)` call in a test file exercises, as written there. */
export interface SecurityCheckCall {
  method: string;
  /**
   * The URL with each `${…}` of a template literal replaced by `PLACEHOLDER`;
   * a query string is ignored.
   */
  url: string;
  /** Where the call is, for messages. */
  source: string;
}

/** Stands for a template literal's `${…}` in a SecurityCheckCall's URL. */
export const PLACEHOLDER = '\u0000';

const segmentsOf = (url: string): string[] => url.split('?')[0]!.split('/').filter(Boolean);

/**
 * Whether a request to `url` reaches `routeUrl`, segment by segment: a route
 * parameter (`:id`) takes any one non-empty segment, a placeholder standing
 * for a `${…}` matches only a parameter, and any other segment must be equal.
 */
export function urlMatchesRoute(url: string, routeUrl: string): boolean {
  const given = segmentsOf(url);
  const route = segmentsOf(routeUrl);
  if (given.length !== route.length) return false;
  return route.every((segment, i) => (segment.startsWith(':') ? true : segment === given[i]));
}

/**
 * The route a request to `url` would reach among those that match it: like
 * the router, a literal segment wins over a parameter at the first place they
 * differ (`/roles/permissions` is the literal route, not `/roles/:id`).
 */
export function routeFor<T extends { method: string; url: string }>(
  method: string,
  url: string,
  routes: readonly T[],
): T | undefined {
  const candidates = routes.filter((r) => r.method === method && urlMatchesRoute(url, r.url));
  const rank = (routeUrl: string) => segmentsOf(routeUrl).map((s) => (s.startsWith(':') ? '1' : '0'));
  return candidates.sort((a, b) => rank(a.url).join('').localeCompare(rank(b.url).join('')))[0];
}

/**
 * `METHOD url` of every `auth: 'user'` route (HEAD aside) that no
 * `securityChecks(…)` call reaches; each call counts for the one route
 * `routeFor` picks for it.
 */
export function routesWithoutSecurityChecks(
  routes: readonly RouteRecord[],
  calls: readonly SecurityCheckCall[],
): string[] {
  const userRoutes = routes.filter((r) => r.auth === 'user' && r.method !== 'HEAD');
  const covered = new Set<RouteRecord>();
  for (const call of calls) {
    const route = routeFor(call.method, call.url, userRoutes);
    if (route) covered.add(route);
  }
  return userRoutes.filter((r) => !covered.has(r)).map((r) => `${r.method} ${r.url}`);
}
