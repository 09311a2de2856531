import type { Server } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Container } from '../container.js';
import { registerErrorHandling } from '../core/errors/error-handler.js';

/**
 * The small HTTP server of a `worker` process, which opens no API port:
 * `/metrics`, `/health/live` and `/health/ready` on METRICS_PORT, with the
 * same handlers (and the same METRICS_TOKEN rule) as the API's. Answers the
 * server once it listens; `close()` it on shutdown.
 */
export async function startProbeServer(
  container: Pick<Container, 'health' | 'metricsModule' | 'logger'>,
  options: { port: number; host: string },
): Promise<{ server: FastifyInstance; address: string }> {
  const server = Fastify<Server>({ loggerInstance: container.logger, disableRequestLogging: true });
  registerErrorHandling(server);
  await container.health.probeRoutes(server);
  await container.metricsModule.rootRoutes(server);
  const address = await server.listen({ port: options.port, host: options.host });
  return { server, address };
}
