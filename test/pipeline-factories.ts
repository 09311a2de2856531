import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { type Container, createContainer } from '../src/container.js';
import { loadConfig } from '../src/core/config/config.js';
import { openPostgres } from '../src/core/db/client.js';
import { intentInteractions, intentTrust, namespaces } from '../src/core/db/schema/index.js';
import type { Persona } from '../src/core/db/schema/knowledge.js';
import { startWorkers } from '../src/workers/index.js';
import { builtForFile } from './app.js';
import { createTestDatabase, testDatabaseUrl, testRedis } from './database.js';
import {
  createDepartment,
  createKnowledgeFixture,
  createNamespace,
  createUser,
  type TestUser,
} from './factories.js';
import type { FakeLlmServer } from './fakes/llm-server.js';
import { withDatabase } from './global-setup.js';

const TEST_ENV = {
  NODE_ENV: 'test',
  JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
  AUTH_RATE_LIMIT_PER_MIN: '10000',
};

export interface PipelineTestContext {
  app: FastifyInstance;
  container: Container;
  close(): Promise<void>;
}

/**
 * {@link createPipelineTestApp} built in `beforeAll` and closed in
 * `afterAll`, as `useTestApp` does for test/app.ts.
 */
export function usePipelineTestApp(
  env: Record<string, string> = {},
  options: Parameters<typeof createPipelineTestApp>[1] = {},
): PipelineTestContext {
  return builtForFile('usePipelineTestApp', () => createPipelineTestApp(env, options));
}

/**
 * The whole service as test/app.ts builds it, with the pipeline's random
 * source and the plugins' clock given (container options) and workers started on request.
 */
export async function createPipelineTestApp(
  env: Record<string, string> = {},
  options: { workers?: boolean; random?: () => number; now?: () => Date } = {},
): Promise<PipelineTestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-pipeline-'));
  const redis = testRedis();
  const config = loadConfig({
    ...TEST_ENV,
    DATA_DIR: dataDir,
    ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}),
    ...env,
  });
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const container = await createContainer(config, {
    logger,
    database: await createTestDatabase(),
    ...(options.random ? { random: options.random } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const app = await buildApp(container);
  await app.ready();
  if (options.workers) startWorkers(container);
  return {
    app,
    container,
    async close() {
      await app.close();
      await container.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second worker process on PostgreSQL + Redis: another container on the
 * same database and Redis prefix as `first`, with its workers started.
 * Only possible on PostgreSQL (PGlite serves one process).
 */
export async function startSecondWorker(first: Container, env: Record<string, string> = {}) {
  const templateUrl = testDatabaseUrl();
  if (!templateUrl || !first.config.redisUrl) throw new Error('a second worker needs PostgreSQL and Redis');
  const database = first.database.location.split('/').pop() ?? '';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-pipeline-'));
  const config = loadConfig({
    ...TEST_ENV,
    DATA_DIR: dataDir,
    REDIS_URL: first.config.redisUrl,
    REDIS_PREFIX: first.config.redisPrefix,
    ...env,
  });
  const container = await createContainer(config, {
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    database: openPostgres(withDatabase(templateUrl, database), 5),
  });
  startWorkers(container);
  return {
    container,
    async close() {
      await container.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` until it answers something truthy; fails after `timeoutMs` with `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The knowledge of the pipeline scenes: one document whose sentences a message can repeat. */
export const VACATION_FACT = 'Employees receive twenty four days of paid vacation every calendar year.';
export const VACATION_QUESTION = 'Employees receive twenty four days of paid vacation every calendar year?';

export interface PipelineScene {
  departmentId: string;
  namespaceId: string;
  employee: TestUser;
  /** E.164 digits of the employee, the channel A sender id. */
  phone: string;
  knowledge: Awaited<ReturnType<typeof createKnowledgeFixture>>;
}

/**
 * A department with a namespace (its default), a knowledge base holding
 * {@link VACATION_FACT}, an intent `vacation` whose example is
 * {@link VACATION_QUESTION}, and an employee with a phone number.
 */
export async function createPipelineScene(
  container: Container,
  values: { persona?: Persona; systemPrompt?: string; config?: Record<string, unknown> } = {},
): Promise<PipelineScene> {
  const department = await createDepartment(container);
  const namespace = await createNamespace(container, {
    departmentId: department.id,
    systemPrompt: values.systemPrompt ?? 'You answer HR questions.',
    ...(values.config ? { config: values.config } : {}),
  });
  if (values.persona) {
    await container.db
      .update(namespaces)
      .set({ persona: values.persona })
      .where(eq(namespaces.id, namespace.id));
  }
  await container.repositories.departments.update(department.id, {
    settings: { defaultNamespaceId: namespace.id },
  });
  const knowledge = await createKnowledgeFixture(container, {
    departmentId: department.id,
    documents: [
      {
        title: 'Vacation policy',
        chunks: [VACATION_FACT, 'Sick leave is paid from the first day with a note.'],
      },
    ],
  });
  await container.intents.service.storeExamples(namespace.id, [
    { intentName: 'vacation', exampleText: VACATION_QUESTION },
    { intentName: 'payroll', exampleText: 'When is the salary paid each month?' },
  ]);
  const phone = `380${Math.floor(100_000_000 + Math.random() * 899_999_999)}`;
  const employee = await createUser(container, { departmentId: department.id, phone });
  return { departmentId: department.id, namespaceId: namespace.id, employee, phone, knowledge };
}

/** Makes the intent autonomous for the namespace, as a direct database update would. */
export async function makeAutonomous(
  container: Container,
  namespaceId: string,
  intent: string,
  samplingRate = 0.1,
) {
  await container.db
    .update(intentTrust)
    .set({ isAutonomous: true, successfulCount: 5, samplingRate })
    .where(and(eq(intentTrust.namespaceId, namespaceId), eq(intentTrust.intentName, intent)));
}

/** Records that the user met the intent before (no first-interaction trigger). */
export async function markInteracted(
  container: Container,
  userId: string,
  namespaceId: string,
  intent: string,
) {
  await container.db
    .insert(intentInteractions)
    .values({ userId, namespaceId, intentName: intent })
    .onConflictDoNothing();
}

/** What the LLM proxy does with chat completions. */
export type ChatMode = 'pass' | 'fail500' | 'hang' | 'hold';

/**
 * A real HTTP server in front of the fake LLM: embeddings always pass
 * through; chat completions pass, answer 500 (with a short retry-after-ms),
 * never answer, or wait until `release()`.
 */
export async function startLlmProxy(fake: FakeLlmServer, initial: ChatMode = 'pass') {
  let mode = initial;
  const held: Array<() => void> = [];
  const counts = { chat: 0, embeddings: 0 };
  const hanging = new Set<ServerResponse>();

  async function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, path: string) {
    const upstream = await fetch(`${fake.baseUrl.replace(/\/v1$/, '')}${path}`, {
      method: req.method,
      headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
      body: body.length ? body : undefined,
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!path.endsWith('/chat/completions')) {
      counts.embeddings++;
      return forward(req, res, body, path);
    }
    counts.chat++;
    if (mode === 'fail500') {
      res.writeHead(500, { 'content-type': 'application/json', 'retry-after-ms': '20' });
      return res.end(JSON.stringify({ error: { message: 'proxy failure', type: 'server_error' } }));
    }
    if (mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (mode === 'hold') await new Promise<void>((resolve) => held.push(resolve));
    return forward(req, res, body, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    counts,
    /** Chat requests waiting in `hold` mode. */
    heldCount: () => held.length,
    setMode(next: ChatMode) {
      mode = next;
    },
    /** Lets every held request through, and later ones pass. */
    release() {
      mode = 'pass';
      for (const resolve of held.splice(0)) resolve();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const resolve of held.splice(0)) resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
