import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import WsPackage from 'ws';
import { buildApp } from '../src/app.js';
import { type Container, createContainer } from '../src/container.js';
import { loadConfig } from '../src/core/config/config.js';
import { openPostgres } from '../src/core/db/client.js';
import { testDatabaseUrl } from './database.js';
import { withDatabase } from './global-setup.js';
import { waitFor } from './pipeline-factories.js';

/** The part of the `ws` client the socket tests use (the package ships no types). */
export interface WsClient {
  send(data: string): void;
  close(): void;
  on(event: 'message', listener: (data: unknown) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  once(event: 'open', listener: () => void): void;
  once(event: 'error', listener: (error: Error) => void): void;
}
const WebSocket = WsPackage as new (url: string) => WsClient;

/** A frame as the sockets send it: `{ event, payload }` (handshake, agent-task events) or `{ type, payload }` (pushes). */
export interface Frame {
  event?: string;
  type?: string;
  payload: Record<string, unknown>;
}

/** A `ws` client that records every frame and how the connection closed. */
export class SocketTestClient {
  readonly frames: Frame[] = [];
  closedWith: { code: number; reason: string } | null = null;

  constructor(readonly socket: WsClient) {
    socket.on('message', (data) => this.frames.push(JSON.parse(String(data)) as Frame));
    socket.on('close', (code, reason) => {
      this.closedWith = { code, reason: reason.toString() };
    });
  }

  /** Opens a socket (no handshake yet). */
  static async open<T extends SocketTestClient>(this: new (socket: WsClient) => T, url: string): Promise<T> {
    const socket = new WebSocket(url);
    const client = new this(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Sends the first-message handshake and waits for `authenticated`. */
  async authenticate(token: string): Promise<this> {
    this.send({ action: 'auth', token });
    await this.waitFor('authenticated event', (f) => f.event === 'authenticated');
    return this;
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first recorded frame matching `match`, waiting for it to arrive; fails at once if the socket closes. */
  waitFor(what: string, match: (frame: Frame) => boolean): Promise<Frame> {
    return waitFor(what, () => {
      const found = this.frames.find(match);
      if (!found && this.closedWith)
        throw new Error(`closed with ${this.closedWith.code} while waiting for ${what}`);
      return found;
    });
  }

  closed(timeoutMs?: number): Promise<{ code: number; reason: string }> {
    return waitFor('the socket to close', () => this.closedWith, timeoutMs);
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * A second API instance on the first one's database, listening on its own
 * port: a replica, for cross-instance socket tests. With PostgreSQL and
 * Redis it opens its own pool and shares the first one's Redis prefix, so
 * the two share the bus and the key-value store. On the embedded drivers it
 * shares the first one's PGlite handle (and so its in-memory access stamps,
 * as a second container on one embedded database does) but has its own
 * in-process bus: messages published on one instance's bus never reach the
 * other, so publish on `container.bus` of the instance a test listens on.
 */
export async function startSecondApi(
  first: Container,
): Promise<{ baseUrl: string; container: Container; close(): Promise<void> }> {
  const templateUrl = testDatabaseUrl();
  const embedded = first.database.driver === 'pglite';
  if (!embedded && (!templateUrl || !first.config.redisUrl))
    throw new Error('a second API instance on PostgreSQL needs Redis as well');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-second-api-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: first.config.jwt.secret,
    ...(first.config.redisUrl
      ? { REDIS_URL: first.config.redisUrl, REDIS_PREFIX: first.config.redisPrefix }
      : {}),
  });
  const database = embedded
    ? // The first instance owns the handle and closes it.
      { ...first.database, close: async () => undefined }
    : openPostgres(withDatabase(templateUrl!, first.database.location.split('/').pop() ?? ''), 5);
  const container = await createContainer(config, {
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    database,
  });
  const app = await buildApp(container);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    baseUrl: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    container,
    async close() {
      await app.close();
      await container.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
