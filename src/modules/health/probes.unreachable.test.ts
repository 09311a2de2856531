import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseUrl } from '../../../test/database.js';
import { withDatabase } from '../../../test/global-setup.js';
import { buildApp } from '../../app.js';
import { type Container, createContainer } from '../../container.js';
import { loadConfig } from '../../core/config/config.js';
import { openPostgres } from '../../core/db/client.js';

/**
 * A TCP relay to PostgreSQL that can be cut (listener closed, every relayed
 * connection destroyed) and opened again on the same port: the database
 * becomes unreachable the way a lost network or a stopped server makes it.
 */
async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const open = async () => {
    if (server?.listening) return;
    server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => sockets.delete(socket));
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(port, '127.0.0.1', resolve);
    });
    port = (server.address() as { port: number }).port;
  };
  await open();
  return {
    get port() {
      return port;
    },
    open,
    async cut() {
      const closed = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

// PostgreSQL only: PGlite runs inside the process, so there is no connection to lose
// (probes.routes.test.ts closes its handle instead, on both drivers).
describe.skipIf(!testDatabaseUrl())('GET /health/ready while PostgreSQL cannot be reached', () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let container: Container;
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    // A database of this file's own, reached through the relay.
    const direct = await createTestDatabase();
    const name = direct.location.split('/').pop() ?? '';
    await direct.close();
    const url = new URL(testDatabaseUrl() ?? '');
    relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    dataDir = mkdtempSync(path.join(tmpdir(), 'aos-ready-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
      DATABASE_URL: url.toString(),
    });
    container = await createContainer(config, {
      logger: pino({ level: 'silent' }),
      database: openPostgres(withDatabase(url.toString(), name), 5),
    });
    app = await buildApp(container);
    await app.ready();
  });
  afterAll(async () => {
    await relay?.open();
    await app?.close();
    await container?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 naming the database while the connection is cut, and 200 once it is back', async () => {
    expect((await app.inject({ url: '/health/ready' })).statusCode).toBe(200);
    await relay.cut();
    const cut = await app.inject({ url: '/health/ready' });
    expect(cut.statusCode).toBe(503);
    expect(cut.json()).toMatchObject({ status: 'not_ready', checks: { database: 'down' } });
    expect((await app.inject({ url: '/health/live' })).statusCode).toBe(200);
    await relay.open();
    const back = await app.inject({ url: '/health/ready' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });
  });
});
