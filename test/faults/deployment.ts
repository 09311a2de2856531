import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray, type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { type Container, createContainer } from '../../src/container.js';
import { loadConfig } from '../../src/core/config/config.js';
import { type DatabaseHandle, openPglite, openPostgres, rowsOf } from '../../src/core/db/client.js';
import { messages } from '../../src/core/db/schema/index.js';
import { type FakeGraphServer, startFakeGraphServer } from '../fakes/chanA-graph-server.js';
import { TEST_PHONE_NUMBER_ID } from '../fakes/chanA-webhooks.js';
import { type FakeLlmServer, startFakeLlmServer } from '../fakes/llm-server.js';
import { type FaultCompany, messageTag, seedFaultCompany, tagOf } from './company.js';
import { freePort, type OwnRedis, startOwnRedis } from './redis-server.js';
import { type LogLine, type ServiceEntry, type ServiceProcess, serviceProcess } from './service-process.js';

const APP_SECRET = 'fault-app-secret';

/** Where the deployment keeps its data: a PostgreSQL database (with a Redis of its own), or a DATA_DIR. */
export type FaultStorage =
  | { kind: 'postgres'; databaseUrl: string }
  | { kind: 'embedded'; dataDir: string; loadDataDir?: Blob };

export interface FaultDeploymentOptions {
  storage: FaultStorage;
  senders: number;
  /** How long the fake model takes to answer a chat completion. */
  modelLatencyMs: number;
  /** Worker processes beside the api (PostgreSQL only; default 2). */
  workers?: number;
  /** How the processes run (default: dist/ when it matches the sources, see currentEntry in service-process.ts). */
  entry?: ServiceEntry;
  /** API processes, each on a port of its own (PostgreSQL only; default 1). */
  apis?: number;
  /** More seeding through the seeder's container, after the company, before the processes start. */
  prepare?: (container: Container, company: FaultCompany) => Promise<void>;
}

/**
 * The service deployed as production runs it, against fakes of the platform
 * and the model: on PostgreSQL, one `api` and `workers` worker processes
 * on a Redis of its own; embedded, one process (`all`) on its DATA_DIR. The
 * company is seeded first ({@link seedFaultCompany}).
 */
export interface FaultDeployment {
  readonly storage: FaultStorage['kind'];
  readonly graph: FakeGraphServer;
  readonly model: FakeLlmServer;
  readonly company: FaultCompany;
  readonly webhookUrl: string;
  readonly appSecret: string;
  /** The process that answers the webhook (`api`, or `all` embedded); the first of {@link apis}. */
  readonly front: ServiceProcess;
  /** Every process that serves HTTP, in the order of {@link apiUrls}. */
  readonly apis: ServiceProcess[];
  /** Each api's address (`http://127.0.0.1:<port>`); the webhook is `${url}/api/v1/chanA/webhook`. */
  readonly apiUrls: string[];
  readonly workers: ServiceProcess[];
  /** PostgreSQL only. */
  readonly redis: OwnRedis | null;
  /** Tasks not ended and replies not sent yet (embedded: read after a clean stop and start again). */
  unfinished(): Promise<number>;
  /** The tags of the replies the processes logged as possible duplicates. */
  loggedDuplicates(): Promise<string[]>;
  /** PostgreSQL only: terminates every connection of the service (pg_terminate_backend); answers how many. */
  terminateBackends(): Promise<number>;
  close(): Promise<void>;
}

const UNFINISHED = sql`SELECT
    (SELECT count(*) FROM agent_tasks WHERE status IN ('queued', 'running'))
  + (SELECT count(*) FROM messages WHERE direction = 'outbound' AND status = 'queued') AS n`;

export async function startFaultDeployment(options: FaultDeploymentOptions): Promise<FaultDeployment> {
  const { storage } = options;
  const graph = await startFakeGraphServer();
  const model = await startFakeLlmServer({ latencyMs: options.modelLatencyMs });
  const redis = storage.kind === 'postgres' ? await startOwnRedis() : null;
  const scratch: string[] = [];
  const scratchDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'aos-fault-'));
    scratch.push(dir);
    return dir;
  };
  const apiCount = storage.kind === 'postgres' ? (options.apis ?? 1) : 1;
  const ports: number[] = [];
  for (let i = 0; i < apiCount; i++) ports.push(await freePort());
  const port = ports[0] ?? 0;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    JWT_SECRET: 'fault-secret-that-is-long-enough-for-hs256-signing',
    HOST: '127.0.0.1',
    PORT: String(port),
    LLM_API_KEY: model.apiKey,
    LLM_BASE_URL: model.baseUrl,
    LLM_MODEL: 'fault-chat',
    LLM_EMBEDDING_MODEL: 'fault-embedding',
    CHANA_APP_SECRET: APP_SECRET,
    CHANA_WEBHOOK_VERIFY_TOKEN: 'fault-verify-token',
    CHANA_PHONE_NUMBER_ID: TEST_PHONE_NUMBER_ID,
    CHANA_ACCESS_TOKEN: 'fault-access-token',
    CHANA_PHONE_NUMBER: '15550783881',
    CHANA_API_BASE_URL: `${graph.url}/v21.0`,
    ...(storage.kind === 'postgres'
      ? { DATABASE_URL: storage.databaseUrl, REDIS_URL: redis?.url ?? '', REDIS_PREFIX: 'fault' }
      : { DATA_DIR: storage.dataDir }),
  };

  // Seeded through the service's own container, with the same model (intent examples embedded by it).
  const seedConfig = loadConfig({
    ...env,
    DATA_DIR: storage.kind === 'embedded' ? storage.dataDir : scratchDir(),
  });
  const seedDatabase: DatabaseHandle | undefined =
    storage.kind === 'embedded'
      ? await openPglite({
          dataDir: path.join(storage.dataDir, 'pgdata'),
          ...(storage.loadDataDir ? { loadDataDir: storage.loadDataDir } : {}),
        })
      : undefined;
  const seeder = await createContainer(seedConfig, {
    logger: pino({ level: 'silent' }),
    ...(seedDatabase ? { database: seedDatabase } : {}),
  });
  const company = await seedFaultCompany(seeder, options.senders);
  await options.prepare?.(seeder, company);
  await seeder.close();

  // Each process gets a metrics port of its own: several share this host.
  const processEnv = async (extra: Record<string, string>) => ({
    ...env,
    ...(storage.kind === 'postgres' ? { DATA_DIR: scratchDir() } : {}),
    METRICS_PORT: String(await freePort()),
    ...extra,
  });
  const apis: ServiceProcess[] = [];
  for (const apiPort of ports) {
    apis.push(
      serviceProcess(
        storage.kind === 'postgres' ? 'api' : 'all',
        await processEnv({ PORT: String(apiPort) }),
        options.entry,
      ),
    );
  }
  const first = apis[0];
  if (!first) throw new Error('no api process');
  const front: ServiceProcess = first;
  const workers: ServiceProcess[] = [];
  if (storage.kind === 'postgres') {
    for (let i = 0; i < (options.workers ?? 2); i++) {
      workers.push(serviceProcess('worker', await processEnv({}), options.entry));
    }
  }
  await Promise.all([...apis, ...workers].map((p) => p.start()));

  const everyLog = (): LogLine[] => [...apis, ...workers].flatMap((p) => p.logs);

  /** Runs `query` on the deployment's database: PostgreSQL directly; embedded between a clean stop and a start. */
  async function withDatabase<T>(query: (run: (statement: SQL) => Promise<unknown>) => Promise<T>) {
    if (storage.kind === 'postgres') {
      const handle = openPostgres(storage.databaseUrl, 1);
      try {
        return await query((statement) => handle.db.execute(statement));
      } finally {
        await handle.close();
      }
    }
    await front.stop();
    const handle = await openPglite({ dataDir: path.join(storage.dataDir, 'pgdata') });
    try {
      return await query((statement) => handle.db.execute(statement));
    } finally {
      await handle.close();
      await front.start();
    }
  }

  return {
    storage: storage.kind,
    graph,
    model,
    company,
    webhookUrl: `http://127.0.0.1:${port}/api/v1/chanA/webhook`,
    appSecret: APP_SECRET,
    front,
    apis,
    apiUrls: ports.map((apiPort) => `http://127.0.0.1:${apiPort}`),
    workers,
    redis,
    unfinished: () =>
      withDatabase(async (run) => Number(rowsOf<{ n: string }>(await run(UNFINISHED))[0]?.n ?? 0)),
    async loggedDuplicates() {
      const ids = everyLog()
        .filter((line) => typeof line.msg === 'string' && line.msg.startsWith('delivery: possible duplicate'))
        .map((line) => String(line.messageId));
      if (ids.length === 0) return [];
      return withDatabase(async (run) => {
        const rows = rowsOf<{ id: string; content: string }>(
          await run(sql`SELECT id, content FROM ${messages} WHERE ${inArray(messages.id, ids)}`),
        );
        const tags = new Map(rows.map((row) => [row.id, tagOf(row.content)]));
        return ids.flatMap((id) => {
          const tag = tags.get(id);
          return tag ? [messageTag(tag)] : [];
        });
      });
    },
    async terminateBackends() {
      if (storage.kind !== 'postgres') throw new Error('no backends to terminate on the embedded database');
      const database = new URL(storage.databaseUrl).pathname.slice(1);
      const client = new pg.Client({ connectionString: storage.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query(
          'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [database],
        );
        return Number(rows[0]?.n ?? 0);
      } finally {
        await client.end();
      }
    },
    async close() {
      await Promise.all([...apis, ...workers].map((p) => p.stop()));
      await redis?.close();
      await graph.close();
      await model.close();
      for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
    },
  };
}
