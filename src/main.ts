import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { runCreateAdmin } from './cli/create-admin-command.js';
import { createContainer } from './container.js';
import { ConfigError, loadConfig } from './core/config/config.js';
import { DataDirLockedError } from './core/db/data-dir-lock.js';
import { createLogger, flushLogger } from './core/logger.js';
import { VERSION } from './core/version.js';
import { startWorkers } from './workers/index.js';
import { startProbeServer } from './workers/probe-server.js';

/**
 * `node dist/main.js [all|api|worker]`: `all` (the default) runs the API,
 * sockets and every worker in one process; `api` and `worker` are the two
 * halves of a distributed deployment. `node dist/main.js create-admin …`
 * runs that command instead (cli/create-admin-command.ts).
 */
async function main(): Promise<void> {
  // Commands run once and exit; anything else names a run mode.
  if (process.argv[2] === 'create-admin') {
    const code = await runCreateAdmin(process.argv.slice(3), process.env, () => readLine(process.stdin), {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    });
    // Explicitly: a terminal's standard input, once read, could otherwise keep the process waiting.
    process.exit(code);
  }
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
  // Coloured, readable lines for a person at a terminal; JSON for files, pipes and production.
  const logger = createLogger(config.logLevel, {
    pretty: config.nodeEnv !== 'production' && process.stdout.isTTY === true,
  });
  logger.info({ mode: config.runMode, version: VERSION }, 'start-up: configuration loaded');
  const container = await createContainer(config, { logger });
  let app: FastifyInstance | null = null;

  let stopping = false;
  /** Closes the app and the container; `crash` bounds the wait, since running jobs may never end. */
  const shutdown = async (signal: string, crash = false) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
    if (crash) setTimeout(() => process.exit(1), CRASH_EXIT_AFTER_MS).unref();
    try {
      await app?.close();
      // After a crash, jobs still running past the grace period are left to another process (a stall).
      await container.close(crash ? { queueGraceMs: CRASH_QUEUE_GRACE_MS } : {});
      logger.info('stopped');
      await flushLogger(logger);
      process.exit(crash ? 1 : 0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      await flushLogger(logger);
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  // A promise nobody awaited failed: that piece of work is lost, but no code stopped half way,
  // so the process keeps serving rather than letting one bad input take every request down.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the process keeps serving');
  });
  // A throw that unwound to the event loop may have left shared state half updated: stop the
  // way SIGTERM does, within bounds, and exit 1 so the supervisor starts a clean process.
  process.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught exception; shutting down');
    void shutdown('uncaughtException', true);
  });

  const drivers = {
    database: `${container.database.driver} (${container.database.location})`,
    queue: container.queue.kind,
    keyValue: container.kv.kind,
    bus: container.bus.kind,
    llm: config.llm.apiKey ? 'openai-compatible' : 'offline',
    jwtSecret: config.jwt.secretSource === 'file' ? 'generated, kept under DATA_DIR' : 'from JWT_SECRET',
  };
  // Listen before any worker starts: a port already taken then ends the
  // start with one clear line, before a job has been picked up.
  if (config.runMode !== 'worker') {
    logger.info({ port: config.port, host: config.host }, 'start-up: listening');
    app = await buildApp(container);
    let address: string;
    try {
      address = await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      const problem = listenProblem(error, config.port, config.host);
      if (!problem) throw error;
      process.stderr.write(`${problem}\n`);
      await app.close().catch(() => {});
      await container.close().catch(() => {});
      process.exit(1);
    }
    const base = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
    logger.info({ mode: config.runMode, drivers }, `listening on ${address}; API docs at ${base}/docs`);
    // Only while nobody can sign in: how to get the first administrator, once, with this process's code.
    const setupCode = await container.setup.service.announce();
    if (setupCode) logger.warn(firstUserHint(base, setupCode));
  }
  // Metrics and probes: on the API port in `all` and `api`; a worker opens no API port, so it serves
  // them on METRICS_PORT, closed on shutdown like the API (held in `app`).
  if (config.runMode === 'worker') {
    const probes = await startProbeServer(container, { port: config.metrics.port, host: config.host });
    app = probes.server;
    logger.info(`metrics at ${probes.address}/metrics; probes at /health/live and /health/ready`);
  } else {
    logger.info(`metrics at /metrics on port ${config.port}; probes at /health/live and /health/ready`);
  }
  if (config.runMode !== 'api') {
    logger.info('start-up: starting workers');
    const queues = startWorkers(container);
    logger.info({ queues }, 'workers started');
  }
  if (config.runMode === 'worker') logger.info({ mode: config.runMode, drivers }, 'worker running');
}

/** After an uncaught exception: how long running jobs may finish, and when the process exits regardless. */
const CRASH_QUEUE_GRACE_MS = 10_000;
const CRASH_EXIT_AFTER_MS = 20_000;

/** The start-up message of a service without any account: the three ways to the first administrator. */
function firstUserHint(base: string, setupCode: string): string {
  return [
    'No user can sign in yet. Create the first administrator in one of three ways:',
    `  1. open ${base}/console/#/setup?code=${setupCode} (setup code ${setupCode}; it works until the first account exists)`,
    '  2. stop the service and run: node dist/main.js create-admin --email you@example.com --password-stdin',
    '     (the password on standard input; with DATABASE_URL the service may keep running)',
    '  3. set ADMIN_EMAIL and ADMIN_PASSWORD and start again',
  ].join('\n');
}

/** Standard input up to its first line end (or its end): a password piped in or typed. */
function readLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = () => {
      input.off('data', onData);
      input.off('end', done);
      input.off('error', reject);
      input.pause();
      resolve(text);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (text.includes('\n')) done();
    };
    input.on('data', onData);
    input.once('end', done);
    input.once('error', reject);
  });
}

/** One line for the listen errors a person can fix by configuration; null for anything else. */
function listenProblem(error: unknown, port: number, host: string): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use on ${host}; set PORT to another port`;
  if (code === 'EACCES')
    return `Port ${port} on ${host} needs privileges this user lacks; set PORT to another port`;
  if (code === 'EADDRNOTAVAIL')
    return `Address ${host} is not an address of this machine; set HOST to another address`;
  return null;
}

main().catch((error) => {
  // Another process holds the embedded database: one line says which and what to do.
  if (error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
