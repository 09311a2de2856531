import type { FastifyInstance } from 'fastify';
import type { Histogram } from 'prom-client';

type RequestHistogram = Histogram<'route' | 'method' | 'status_code'>;

/**
 * Observes every response's duration by route pattern (`routeOptions.url`;
 * `unmatched` for a 404 that no route took, so scanners cannot grow the label
 * set), method and status code. The hot path (the channel A webhook takes
 * thousands of requests a second) allocates nothing once a combination has
 * been seen: its labelled child is kept in nested maps.
 */
export function registerHttpMetrics(app: FastifyInstance, histogram: RequestHistogram): void {
  const children = new Map<string, Map<string, Map<number, Histogram.Internal<string>>>>();

  function childOf(route: string, method: string, status: number): Histogram.Internal<string> {
    let byMethod = children.get(route);
    if (!byMethod) {
      byMethod = new Map();
      children.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let child = byStatus.get(status);
    if (!child) {
      child = histogram.labels({ route, method, status_code: String(status) });
      byStatus.set(status, child);
    }
    return child;
  }

  app.addHook('onResponse', (request, reply, done) => {
    childOf(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode).observe(
      reply.elapsedTime / 1000,
    );
    done();
  });
}
