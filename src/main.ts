import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { createContainer } from './container.js';
import { ConfigError, loadConfig } from './core/config/config.js';
import { createLogger } from './core/logger.js';
import { startWorkers } from './workers/index.js';

/**
 * `node dist/main.js [all|api|worker]`: `all` (the default) runs the API,
 * sockets and every worker in one process; `api` and `worker` are the two
 * halves of a distributed deployment.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, process.argv[2]);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const container = await createContainer(config, { logger });
  let app: FastifyInstance | null = null;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
    try {
      await app?.close();
      await container.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  const drivers = {
    database: `${container.database.driver} (${container.database.location})`,
    queue: container.queue.kind,
    keyValue: container.kv.kind,
    bus: container.bus.kind,
    llm: config.llm.apiKey ? 'openai-compatible' : 'offline',
    jwtSecret: config.jwt.secretSource === 'file' ? 'generated, kept under DATA_DIR' : 'from JWT_SECRET',
  };
  if (config.runMode !== 'api') {
    const queues = startWorkers(container);
    logger.info({ queues }, 'workers started');
  }
  if (config.runMode !== 'worker') {
    app = await buildApp(container);
    const address = await app.listen({ port: config.port, host: config.host });
    const base = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
    logger.info({ mode: config.runMode, drivers }, `listening on ${address}; API docs at ${base}/docs`);
  } else {
    logger.info({ mode: config.runMode, drivers }, 'worker running');
  }
}

main().catch((error) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
