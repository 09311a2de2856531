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
