import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Container, createContainer } from '../src/container.js';
import { loadConfig } from '../src/core/config/config.js';
import { LOG_SERIALIZERS } from '../src/core/logger.js';
import { startWorkers } from '../src/workers/index.js';
import { createTestDatabase, testRedis } from './database.js';

export interface TestContext {
  app: FastifyInstance;
  container: Container;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole service on this test file's own database (and Redis prefix when
 * REDIS_URL is set), built exactly as main.ts builds it, minus `listen`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { workers?: boolean } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-data-'));
  const redis = testRedis();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    AUTH_RATE_LIMIT_PER_MIN: '10000',
    ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}),
    ...env,
  });
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent', serializers: LOG_SERIALIZERS });
  const container = await createContainer(config, { logger, database: await createTestDatabase() });
  const app = await buildApp(container);
  await app.ready();
  // Run mode `all` starts the queue consumers beside the API; tests that need jobs processed ask for them.
  if (options.workers) startWorkers(container);
  return {
    app,
    container,
    dataDir,
    async close() {
      await app.close();
      await container.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A context built by `create` in `beforeAll` and closed in `afterAll`, for
 * one test file: the answer reads through to it, inside tests and hooks
 * (`label` names the helper in the error for a read before it is built).
 */
export function builtForFile<T extends { close(): Promise<void> }>(
  label: string,
  create: () => Promise<T>,
): T {
  let current: T | undefined;
  beforeAll(async () => {
    current = await create();
  });
  afterAll(() => current?.close());
  return new Proxy({} as T, {
    get(_target, key) {
      if (!current) throw new Error(`${label}: the app is built in beforeAll; use it inside tests and hooks`);
      return Reflect.get(current, key);
    },
  });
}

/**
 * The usual setup of an endpoint test file: one app for the file, built before
 * its tests and closed after them. The returned context reads through to the
 * app once `beforeAll` has built it.
 */
export function useTestApp(
  env: Record<string, string> = {},
  options: { workers?: boolean } = {},
): TestContext {
  return builtForFile('useTestApp', () => createTestApp(env, options));
}
