/**
 * Pipeline benchmark: messages per second from the inbound service to the
 * delivery decision, database round trips per message and per-step latency,
 * next to the queue driver's own rate for no-op jobs measured in the same run.
 *
 *   npm run bench:pipeline
 *
 * Driver sets: embedded (a fresh PGlite on disk under a scratch DATA_DIR, the
 * database key-value store and queue, the in-process bus) always; PostgreSQL
 * + Redis when DATABASE_URL and REDIS_URL are set (a scratch database of its
 * own is created next to DATABASE_URL and dropped at the end; Redis keys go
 * under prefixes of their own, deleted at the end).
 *
 * Each set builds the service as main.ts does (createContainer, then
 * startWorkers). On PostgreSQL + Redis it runs each layout of
 * BENCH_WORKER_PROCESSES in turn (a list, default 0,2): 0 is one process,
 * N puts the workers in N processes of their own, bench/pipeline-worker.ts,
 * as `main.js api` and `main.js worker` do. The LLM is the offline pair
 * (no LLM_API_KEY): the local embedder and the extractive responder run in
 * the process and answer at once, so what is measured is the service
 * around the model. Seeded with direct inserts: one department and
 * namespace (two persona boundaries), BENCH_CHUNKS (default 10 000) chunks
 * in BENCH_KNOWLEDGE_BASES (default one) knowledge bases of the namespace,
 * embedded with the local embedder (indexes rebuilt after the load), 12
 * intents of 20 examples stored through the intents service (half of them
 * autonomous), one approver and one employee per message (BENCH_SENDERS,
 * default one per message, so per-conversation ordering never makes a task
 * wait), half of whom met every intent before; then the seeded tables are
 * analysed, as autovacuum keeps a running database.
 *
 * Run: BENCH_WARMUP messages (default 2000) per process running tasks first,
 * unmeasured (a running service's steady state, not its start); then
 * BENCH_MESSAGES (default 1000 on PostgreSQL, 400 embedded) web-chat
 * messages, BENCH_IN_FLIGHT (default 32) receive() calls at a time, on
 * PostgreSQL through a pool of BENCH_POOL (default 4) connections. The
 * window runs from the first receive() to the last `agent-task.completed`
 * event (heard on the bus, so waiting reads nothing from the database) and
 * the memory-extraction queue's last job (its counts, polled after that).
 * Every statement the database driver executes in the window is counted
 * (the PGlite client's query/exec and BEGIN/COMMIT of its transactions; the
 * pg pool's clients' query), memory extraction and the embedded queue and
 * key-value store included. Step latencies come from agent_tool_calls
 * (durationMs), the task's from agent_tasks.
 *
 * Ceiling: BENCH_CEILING_JOBS (default 2000) no-op jobs added to
 * `memory-extraction` of a scratch queue (a second fresh PGlite for the
 * embedded driver, another Redis prefix for BullMQ) and processed with the
 * same concurrency; jobs/s from the first add to the last completion.
 *
 * Floor (bench/pipeline-floor.ts): BENCH_FLOOR_MESSAGES (default: as many as
 * the window's) messages whose rows, jobs and events are the pipeline's,
 * written in six statements on the same database and bus, jobs on another
 * scratch queue, with none of the pipeline's work; messages/s as the window's.
 *
 * Writes the tables into docs/benchmarks.md between its markers (BENCH_WRITE=0 skips).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { type Container, createContainer } from '../src/container.js';
import { loadConfig } from '../src/core/config/config.js';
import { type DatabaseHandle, openPglite, openPostgres, rowsOf } from '../src/core/db/client.js';
import { agentTasks, agentToolCalls } from '../src/core/db/schema/index.js';
import { vectorLiteral } from '../src/core/db/vector.js';
import { embedderVersion } from '../src/core/llm/llm.js';
import { createLocalEmbedder } from '../src/core/llm/local-embedder.js';
import { createLogger } from '../src/core/logger.js';
import { createBullmqQueue } from '../src/core/queue/bullmq-queue.js';
import { createEmbeddedQueue } from '../src/core/queue/embedded-queue.js';
import type { QueueDriver } from '../src/core/queue/queue.js';
import { subscribeEvents } from '../src/core/realtime/events.js';
import { scanChunks } from '../src/modules/knowledge/chunk-safety.js';
import { DETECTOR_FINGERPRINT } from '../src/modules/rag/injection-detection.js';
import { keywordIndexEntry } from '../src/modules/rag/text-analysis.js';
import { STEP_NAMES } from '../src/pipeline/runner.js';
import { startWorkers } from '../src/workers/index.js';
import { seedDepartment, seededRandom, seedIntentsAndPeople, vocabulary } from './corpus.js';
import {
  type CpuTimes,
  cpuSpent,
  cpuTimes,
  log,
  percentile,
  perMessage,
  profiled,
  scratchPostgres,
  writeBenchSection,
} from './lib.js';
import { floor } from './pipeline-floor.js';
import { ownWork } from './pipeline-own-work.js';
import { counter, countPglite, countPool } from './statement-counter.js';
import { forkWorkers, type WorkerProcesses } from './worker-processes.js';

const env = process.env;
const settings = {
  chunks: Number(env.BENCH_CHUNKS ?? 10_000),
  /**
   * Knowledge bases the chunks are spread over, all searched by the namespace (BENCH_KNOWLEDGE_BASES):
   * one, as the issue's workload names it; the tables before the eighth session used two (a vector
   * and a keyword search each).
   */
  knowledgeBases: Number(env.BENCH_KNOWLEDGE_BASES ?? 1),
  intents: 12,
  examplesPerIntent: 20,
  /**
   * Warm-up messages per process that runs tasks (BENCH_WARMUP, default 2000), unmeasured: the
   * window measures a running service, not its start. A process's first few hundred tasks compile
   * the injection rules' expressions and fill its per-word and per-chunk memos (the detector's first
   * 250 messages in a fresh worker process took 2.5 ms each, 0.2 ms after), and V8's optimising
   * compiler keeps compiling for a few thousand (`perf` over a run: 10 to 27 % of the Node
   * processes' CPU in the seconds after 400 messages a process, 4 % after 2000). 50 before the
   * tenth session, 400 in it.
   */
  warmupPerProcess: Number(env.BENCH_WARMUP ?? 2000),
  warmup: (workerProcesses: number) => settings.warmupPerProcess * Math.max(1, workerProcesses),
  messages: (pgSet: boolean) => Number(env.BENCH_MESSAGES ?? (pgSet ? 1000 : 400)),
  /** agent-tasks jobs one worker process runs at once (AGENT_TASK_CONCURRENCY). */
  concurrency: (pgSet: boolean) => Number(env.BENCH_CONCURRENCY ?? (pgSet ? 16 : 8)),
  /**
   * Connections of the PostgreSQL pool (DATABASE_POOL_SIZE). Fewer than the
   * concurrent tasks: on this 2-core machine, which also runs PostgreSQL, 4
   * busy backends gave more messages/s and less PostgreSQL CPU per message
   * than 6 or 10 (docs/benchmarks.md).
   */
  pool: Number(env.BENCH_POOL ?? 4),
  /**
   * PostgreSQL + Redis: worker processes beside this one (BENCH_WORKER_PROCESSES, a comma-separated
   * list, each run in turn), as a distributed deployment runs (`main.js api` here, `main.js worker`
   * there); 0 runs everything in this process, as `main.js all` does. By default both: one process,
   * and the API with two worker processes (one per core). The embedded drivers run in one process.
   */
  workerProcessCounts: (env.BENCH_WORKER_PROCESSES ?? '0,2').split(',').map(Number),
  inFlight: Number(env.BENCH_IN_FLIGHT ?? 32),
  senders: env.BENCH_SENDERS ? Number(env.BENCH_SENDERS) : null,
  ceilingJobs: Number(env.BENCH_CEILING_JOBS ?? 2000),
  /** Messages of the floor run; by default as many as the measured window's. */
  floorMessages: (pgSet: boolean) => Number(env.BENCH_FLOOR_MESSAGES ?? (pgSet ? 1000 : 400)),
  write: env.BENCH_WRITE !== '0',
  /** BENCH_SETS=embedded or =postgres runs one set only. */
  sets: env.BENCH_SETS ?? 'embedded,postgres',
  /** BENCH_KEEP=1 leaves the PostgreSQL scratch database in place (its name is printed) for a look at its plans. */
  keep: env.BENCH_KEEP === '1',
};
const TARGETS: Record<string, number> = { embedded: 50, 'PostgreSQL + Redis': 300 };

function sumOf(cpu: CpuTimes): number {
  return cpu.node + cpu.postgres + cpu.redis;
}

/** CPU milliseconds as a table cell: the sum, then each part. */
function cpuCell(cpu: CpuTimes): string {
  return `${sumOf(cpu).toFixed(1)} (${cpu.node.toFixed(1)}, ${cpu.postgres.toFixed(1)}, ${cpu.redis.toFixed(1)})`;
}

/**
 * The CPU a message may use at the target rate when every core the drivers
 * can use works: cores ÷ target. The embedded drivers run in one thread
 * (PGlite inside the process), so one core; PostgreSQL + Redis use them all.
 */
function budgetMs(drivers: string): number {
  const cores = drivers === 'embedded' ? 1 : os.cpus().length;
  return (cores * 1000) / (TARGETS[drivers] ?? 1);
}

const DOCUMENTS_PER_BASE = 10;
const SENTENCES_PER_CHUNK = 5;

/** How the service ran: one process, or one receiving the messages and `workers` worker processes. */
const processesLabel = (workers: number) =>
  workers === 0 ? 'one process' : `1 api + ${workers} worker process${workers === 1 ? '' : 'es'}`;

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

// ---------------------------------------------------------------- data

interface Seeded {
  departmentId: string;
  namespaceId: string;
  senderIds: string[];
  messages: string[];
  knowledgeBaseIds: string[];
}

async function seed(container: Container, senderCount: number, messageCount: number): Promise<Seeded> {
  const { db } = container;
  const random = seededRandom(7);
  const words = vocabulary(random, settings.intents);
  const suffix = randomBytes(3).toString('hex');
  const started = process.hrtime.bigint();

  const { department, namespace } = await seedDepartment(container, suffix);

  // Chunks: direct inserts with the local embedder's vectors; indexes rebuilt after the load.
  const embedder = createLocalEmbedder(container.config.embeddingDimensions);
  await db.execute(sql`DROP INDEX chunks_embedding_idx`);
  await db.execute(sql`DROP INDEX chunks_search_vector_idx`);
  await db.execute(sql`DROP INDEX chunks_terms_idx`);
  await db.execute(sql`DROP INDEX chunks_content_trgm_idx`);
  const knowledgeBaseIds: string[] = [];
  const sentences: string[] = [];
  const perDocument = Math.ceil(settings.chunks / (settings.knowledgeBases * DOCUMENTS_PER_BASE));
  let loaded = 0;
  for (let k = 0; k < settings.knowledgeBases; k++) {
    const [kb] = rowsOf<{ id: string }>(
      await db.execute(
        sql`INSERT INTO knowledge_bases (name, department_id) VALUES (${`Bench KB ${k}`}, ${department.id}) RETURNING id`,
      ),
    );
    knowledgeBaseIds.push(kb!.id);
    for (let d = 0; d < DOCUMENTS_PER_BASE && loaded < settings.chunks; d++) {
      const [doc] = rowsOf<{ id: string }>(
        await db.execute(sql`INSERT INTO documents (knowledge_base_id, department_id, title, type, status)
          VALUES (${kb!.id}, ${department.id}, ${`Handbook ${k}.${d}`}, 'txt', 'ready') RETURNING id`),
      );
      const count = Math.min(perDocument, settings.chunks - loaded);
      for (let from = 0; from < count; from += 200) {
        const indexes: number[] = [];
        const contents: string[] = [];
        const vectors: string[] = [];
        for (let i = from; i < Math.min(count, from + 200); i++) {
          const topic = Math.floor(random() * settings.intents);
          const parts = Array.from({ length: SENTENCES_PER_CHUNK }, () => words.sentence(topic));
          if (sentences.length < 5000) sentences.push(parts[0]!);
          const content = `${parts.join('. ')}.`;
          indexes.push(i);
          contents.push(content);
          vectors.push(vectorLiteral(embedder.embedOne(content)));
        }
        // One JSON parameter per batch: drizzle expands a JS array into one parameter per element.
        // The keyword terms, the embedder version and the prompt-injection scan as ingestion writes
        // them, so the BM25 leg has terms to rank, the index upkeep finds nothing to re-embed, and
        // retrieval trusts the scan as it trusts ingestion's.
        const verdicts = scanChunks(contents);
        const rows = JSON.stringify(
          indexes.map((i, n) => {
            const entry = keywordIndexEntry(contents[n]!);
            const verdict = verdicts[n] ?? null;
            return { i, c: contents[n], e: vectors[n], t: entry.terms, n: entry.termCount, j: verdict };
          }),
        );
        await db.execute(sql`INSERT INTO chunks (document_id, knowledge_base_id, chunk_index, content, token_count, embedding, terms, term_count, embedder, held_back, injection, scanned_by)
          SELECT ${doc!.id}, ${kb!.id}, (t.v ->> 'i')::int, t.v ->> 'c', 60, (t.v ->> 'e')::vector,
            (t.v ->> 't')::tsvector, (t.v ->> 'n')::int, ${embedderVersion(embedder)},
            jsonb_typeof(t.v -> 'j') = 'object', nullif(t.v -> 'j', 'null'::jsonb), ${DETECTOR_FINGERPRINT}
          FROM jsonb_array_elements(${rows}::jsonb) AS t(v)`);
        loaded += indexes.length;
      }
      process.stdout.write(`\r  loaded ${loaded} / ${settings.chunks} chunks`);
    }
  }
  process.stdout.write('\n');
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('maintenance_work_mem', '512MB', true)`);
    await tx.execute(
      sql`CREATE INDEX chunks_embedding_idx ON chunks USING hnsw (embedding vector_cosine_ops)`,
    );
  });
  await db.execute(sql`CREATE INDEX chunks_search_vector_idx ON chunks USING gin (search_vector)`);
  await db.execute(sql`CREATE INDEX chunks_terms_idx ON chunks USING gin (terms) WITH (fastupdate = off)`);
  await db.execute(sql`CREATE INDEX chunks_content_trgm_idx ON chunks USING gin (content gin_trgm_ops)`);
  await db.execute(sql`ANALYZE chunks`);

  // Intents, an approver and the senders; half of the senders met every intent.
  const senderIds = await seedIntentsAndPeople(container, {
    departmentId: department.id,
    namespaceId: namespace.id,
    intents: settings.intents,
    examplesPerIntent: settings.examplesPerIntent,
    words,
    suffix,
    senderCount,
  });
  const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;
  await db.execute(sql`INSERT INTO intent_interactions (user_id, namespace_id, intent_name)
    SELECT u, ${namespace.id}, 'topic-' || t
    FROM unnest(${uuidArray(senderIds.filter((_, i) => i % 2 === 0))}::uuid[]) u, generate_series(0, ${settings.intents - 1}) t`);

  // Statistics, as autovacuum keeps them in a running database (the rows above came in a few
  // statements, faster than it looks): without them the planner guesses, and plans the approvers'
  // lookup as a scan of every user. VACUUM also moves the new rows out of the GIN indexes' pending lists.
  for (const table of [
    'users',
    'employee_profiles',
    'intent_interactions',
    'intent_examples',
    'intent_trust',
  ])
    await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));

  // Messages: half repeat a sentence of the knowledge word for word, half are new questions.
  const messages = Array.from({ length: messageCount }, (_, i) =>
    i % 2 === 0 ? `${words.pick(sentences)}?` : words.question(Math.floor(random() * settings.intents)),
  );
  log(
    `  seeded in ${seconds(started).toFixed(1)} s: ${loaded} chunks, ${settings.intents * settings.examplesPerIntent} intent examples, ${senderCount} senders`,
  );
  return { departmentId: department.id, namespaceId: namespace.id, senderIds, messages, knowledgeBaseIds };
}

// ---------------------------------------------------------------- measuring

interface RunResult {
  drivers: string;
  run: number;
  /** Worker processes beside the one receiving the messages; 0: everything in one process. */
  workerProcesses: number;
  concurrency: number;
  messages: number;
  senders: number;
  seconds: number;
  messagesPerSec: number;
  roundTrips: number;
  roundTripsPerMessage: number;
  shapes: Array<[string, number]>;
  steps: Record<string, { p50: number; p95: number }>;
  task: { p50: number; p95: number };
  endToEnd: { p50: number; p95: number };
  routes: Record<string, number>;
  failed: number;
  ceilingJobsPerSec: number;
  /** The floor's messages/s: the same rows, jobs and events without the pipeline's work (bench/pipeline-floor.ts). */
  floorMessagesPerSec: number;
  /** CPU milliseconds per message in the window: this process, the PostgreSQL server, the Redis server. */
  cpuMsPerMessage: CpuTimes;
  /** The floor's CPU milliseconds per message, as `cpuMsPerMessage`. */
  floorCpuMsPerMessage: CpuTimes;
  /** The pipeline's own work alone (bench/pipeline-own-work.ts), CPU milliseconds per message, as `cpuMsPerMessage`. */
  ownWorkCpuMsPerMessage: CpuTimes;
}

/** Sends the messages through the inbound service and waits for every task's completion event. */
async function drive(container: Container, senders: string[], texts: string[], tag: string) {
  const sentAt = new Map<string, number>();
  const finished = new Map<string, number>();
  let resolveAll: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });
  let expected = Number.POSITIVE_INFINITY;
  const unsubscribe = await subscribeEvents(container.bus, 'agent-task', (envelope) => {
    if (envelope.event !== 'agent-task.completed' && envelope.event !== 'agent-task.failed') return;
    const { taskId } = envelope.payload as { taskId: string };
    if (finished.has(taskId)) return;
    finished.set(taskId, performance.now());
    if (finished.size >= expected && [...sentAt.keys()].every((id) => finished.has(id))) resolveAll();
  });
  const taskIds: string[] = [];
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(settings.inFlight, texts.length) }, async () => {
      while (next < texts.length) {
        const i = next++;
        const userId = senders[i % senders.length]!;
        const before = performance.now();
        const result = await container.pipeline.inbound.receive({
          channel: 'web',
          channelUserId: userId,
          userId,
          text: texts[i]!,
          channelMessageId: `${tag}-${i}`,
        });
        if (result.taskId) {
          sentAt.set(result.taskId, before);
          taskIds.push(result.taskId);
        }
      }
    }),
  );
  expected = taskIds.length;
  if ([...sentAt.keys()].every((id) => finished.has(id))) resolveAll();
  const deadline = setTimeout(() => resolveAll(), 600_000);
  await all;
  clearTimeout(deadline);
  // The work that follows each task belongs to the message too: the window closes once the
  // memory-extraction jobs are done (a few polls of the queue's counts, after the last task).
  for (;;) {
    const counts = await container.queue.counts('memory-extraction');
    if (counts.waiting + counts.active + counts.delayed === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const elapsed = seconds(started);
  await unsubscribe();
  const missing = taskIds.filter((id) => !finished.has(id));
  if (missing.length > 0) throw new Error(`${missing.length} tasks did not finish within 10 minutes`);
  const lastDone = Math.max(...finished.values());
  const firstSent = Math.min(...sentAt.values());
  const endToEnd = taskIds.map((id) => finished.get(id)! - sentAt.get(id)!);
  return { taskIds, seconds: elapsed, windowSeconds: (lastDone - firstSent) / 1000, endToEnd };
}

async function stepFigures(container: Container, taskIds: string[]) {
  const { db } = container;
  const steps: RunResult['steps'] = {};
  const calls = await db
    .select({ stepName: agentToolCalls.stepName, durationMs: agentToolCalls.durationMs })
    .from(agentToolCalls)
    .where(inArray(agentToolCalls.taskId, taskIds));
  for (const name of STEP_NAMES) {
    const values = calls.filter((c) => c.stepName === name).map((c) => c.durationMs ?? 0);
    steps[name] = { p50: percentile(values, 50), p95: percentile(values, 95) };
  }
  const tasks = await db
    .select({ status: agentTasks.status, durationMs: agentTasks.durationMs, output: agentTasks.output })
    .from(agentTasks)
    .where(inArray(agentTasks.id, taskIds));
  const durations = tasks.map((t) => t.durationMs ?? 0);
  const routes: Record<string, number> = {};
  for (const t of tasks) {
    const route = t.status === 'done' ? String((t.output as { route?: string })?.route) : t.status;
    routes[route] = (routes[route] ?? 0) + 1;
  }
  return {
    steps,
    task: { p50: percentile(durations, 50), p95: percentile(durations, 95) },
    routes,
    failed: tasks.filter((t) => t.status !== 'done').length,
  };
}

/** The queue driver's own rate: no-op jobs added and processed with the same concurrency. */
async function ceiling(queue: QueueDriver, concurrency: number): Promise<number> {
  const jobs = settings.ceilingJobs;
  let done = 0;
  let resolveAll: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });
  queue.process(
    'memory-extraction',
    async () => {
      if (++done >= jobs) resolveAll();
      return null;
    },
    { concurrency },
  );
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: settings.inFlight }, async () => {
      while (next < jobs) {
        const i = next++;
        await queue.add('memory-extraction', 'noop', { i }, { jobId: `noop-${i}` });
      }
    }),
  );
  await all;
  const rate = jobs / seconds(started);
  await queue.close();
  return rate;
}

interface DriverSet {
  name: string;
  /** Opens the database handle for the service, counting its queries. */
  open(dataDir: string): Promise<DatabaseHandle>;
  env: Record<string, string>;
  /** A queue driver on scratch storage of the same kind, for the ceiling. */
  scratchQueue(): Promise<{ queue: QueueDriver; close(): Promise<void> }>;
  cleanup(): Promise<void>;
}

async function run(set: DriverSet, round: number, workerProcesses = 0): Promise<RunResult> {
  const pgSet = set.name !== 'embedded';
  const concurrency = settings.concurrency(pgSet);
  const messageCount = settings.messages(pgSet);
  const warmup = settings.warmup(workerProcesses);
  const senderCount = settings.senders ?? messageCount + warmup;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aos-bench-pipeline-'));
  const configEnv = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    AGENT_TASK_CONCURRENCY: String(concurrency),
    DATABASE_POOL_SIZE: String(settings.pool),
    ...set.env,
  };
  const config = loadConfig(configEnv, workerProcesses > 0 ? 'api' : 'all');
  const logger = createLogger(config.logLevel, { destination: '/dev/null' });
  log(
    `${set.name}, run ${round}: concurrency ${concurrency}, ${messageCount} messages, ${processesLabel(workerProcesses)}`,
  );
  const container = await createContainer(config, { logger, database: await set.open(dataDir) });
  let workers: WorkerProcesses | null = null;
  try {
    const data = await seed(container, senderCount, messageCount + warmup);
    // The in-memory vector indexes load in the background on a process's first searches; the
    // benchmark measures the steady state, so it loads them first.
    const warmStarted = performance.now();
    await container.rag.repositories.rag.warmSearch(data.knowledgeBaseIds);
    log(`  vector indexes loaded in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s`);
    if (workerProcesses > 0) workers = await forkWorkers(workerProcesses, configEnv, data.knowledgeBaseIds);
    else startWorkers(container);
    const warmSenders = data.senderIds.slice(messageCount);
    if (warmup > 0) {
      await drive(container, warmSenders, data.messages.slice(messageCount), `warm${round}`);
    }
    const measuredSenders = data.senderIds.slice(0, messageCount);
    await workers?.start();
    counter.total = 0;
    counter.shapes.clear();
    counter.ms.clear();
    counter.on = true;
    const cpuBefore = cpuTimes();
    const driven = await profiled(() =>
      drive(
        container,
        settings.senders ? data.senderIds.slice(0, settings.senders) : measuredSenders,
        data.messages.slice(0, messageCount),
        `run${round}`,
      ),
    );
    counter.on = false;
    const cpu = cpuSpent(cpuBefore, cpuTimes());
    // The worker processes' statements and CPU count with this process's.
    for (const figures of (await workers?.stop()) ?? []) {
      counter.total += figures.statements;
      for (const [shape, n] of figures.shapes)
        counter.shapes.set(shape, (counter.shapes.get(shape) ?? 0) + n);
      cpu.node += figures.cpuMs;
    }
    const figures = await stepFigures(container, driven.taskIds);
    const scratch = await set.scratchQueue();
    let ceilingJobsPerSec: number;
    try {
      ceilingJobsPerSec = await ceiling(scratch.queue, concurrency);
    } finally {
      await scratch.close();
    }
    const floorScratch = await set.scratchQueue();
    const floorMessages = settings.floorMessages(pgSet);
    let floorMessagesPerSec: number;
    const floorCpuBefore = cpuTimes();
    try {
      floorMessagesPerSec = await floor({
        db: container.db,
        bus: container.bus,
        queue: floorScratch.queue,
        concurrency,
        inFlight: settings.inFlight,
        messages: floorMessages,
        userIds: data.senderIds,
        departmentId: data.departmentId,
        namespaceId: data.namespaceId,
      });
    } finally {
      await floorScratch.close();
    }
    const floorCpu = cpuSpent(floorCpuBefore, cpuTimes());
    const ownWorkInput = {
      container,
      namespaceId: data.namespaceId,
      departmentId: data.departmentId,
      knowledgeBaseIds: data.knowledgeBaseIds,
    };
    // This process ran no task when the workers had processes of their own: its compiler warms first.
    await ownWork({ ...ownWorkInput, texts: data.messages.slice(messageCount, messageCount + 1000) });
    const own = await ownWork({ ...ownWorkInput, texts: data.messages.slice(0, messageCount) });
    const result: RunResult = {
      drivers: set.name,
      run: round,
      workerProcesses,
      concurrency,
      messages: driven.taskIds.length,
      senders: settings.senders ?? measuredSenders.length,
      seconds: driven.seconds,
      messagesPerSec: driven.taskIds.length / driven.seconds,
      roundTrips: counter.total,
      roundTripsPerMessage: counter.total / driven.taskIds.length,
      shapes: [...counter.shapes].sort((a, b) => b[1] - a[1]),
      ...figures,
      endToEnd: { p50: percentile(driven.endToEnd, 50), p95: percentile(driven.endToEnd, 95) },
      ceilingJobsPerSec,
      floorMessagesPerSec,
      floorCpuMsPerMessage: perMessage(floorCpu, floorMessages),
      ownWorkCpuMsPerMessage: own,
      cpuMsPerMessage: perMessage(cpu, driven.taskIds.length),
    };
    log(
      `  ${result.messagesPerSec.toFixed(0)} messages/s (${result.seconds.toFixed(1)} s), ` +
        `${result.roundTripsPerMessage.toFixed(1)} round trips/message, ceiling ${ceilingJobsPerSec.toFixed(0)} jobs/s, ` +
        `floor ${floorMessagesPerSec.toFixed(0)} messages/s, ` +
        `task p50 ${result.task.p50} ms p95 ${result.task.p95} ms, routes ${JSON.stringify(result.routes)}`,
    );
    log(
      `    CPU per message (all; node, PostgreSQL, Redis): pipeline ${cpuCell(result.cpuMsPerMessage)}; floor ${cpuCell(result.floorCpuMsPerMessage)}; own work alone ${cpuCell(result.ownWorkCpuMsPerMessage)}; the target allows ${budgetMs(set.name).toFixed(1)}`,
    );
    log(
      `    searches served (vector leg): ${JSON.stringify(container.rag.repositories.rag.servedSearches())}`,
    );
    for (const [name, s] of Object.entries(result.steps))
      log(`    ${name.padEnd(18)} p50 ${s.p50} ms  p95 ${s.p95} ms`);
    for (const [shape, n] of result.shapes) {
      const ms = env.BENCH_TIMING === '1' ? `  ${((counter.ms.get(shape) ?? 0) / n).toFixed(2)} ms each` : '';
      log(`    ${(n / result.messages).toFixed(2).padStart(6)}  ${shape}${ms}`);
    }
    return result;
  } finally {
    await workers?.close();
    await container.close();
    logger.flush();
    rmSync(dataDir, { recursive: true, force: true });
    await set.cleanup();
  }
}

function embeddedSet(): DriverSet {
  const scratchDirs: string[] = [];
  return {
    name: 'embedded',
    env: {},
    async open(dataDir) {
      const handle = await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
      countPglite(handle.client);
      return handle;
    },
    async scratchQueue() {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'aos-bench-queue-'));
      scratchDirs.push(dir);
      const handle = await openPglite({ dataDir: dir });
      await handle.migrate();
      return {
        queue: createEmbeddedQueue(handle.db),
        close: async () => {
          await handle.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    async cleanup() {
      for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresSet(databaseUrl: string, redisUrl: string): Promise<DriverSet> {
  const scratch = await scratchPostgres('pipeline', databaseUrl, redisUrl);
  return {
    name: scratch.name,
    env: scratch.env,
    async open() {
      const handle = openPostgres(scratch.databaseUrl, settings.pool);
      countPool(handle.pool);
      return handle;
    },
    async scratchQueue() {
      const queue = createBullmqQueue({ url: redisUrl, prefix: `${scratch.redisPrefix}-ceiling` });
      return { queue, close: async () => undefined };
    },
    cleanup: () => scratch.cleanup({ keep: settings.keep }),
  };
}

// ---------------------------------------------------------------- report

function tables(results: RunResult[]): string {
  const main = [
    '| drivers | run | processes | concurrency | messages | messages/s | target | floor (messages/s) | queue ceiling (no-op jobs/s) | DB round trips / message | CPU ms / message (node, PostgreSQL, Redis) | task p50 / p95 (ms) | receive → decided p50 / p95 (ms) | routes |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|',
    ...results.map(
      (r) =>
        `| ${r.drivers} | ${r.run} | ${processesLabel(r.workerProcesses)} | ${r.concurrency} | ${r.messages} | **${r.messagesPerSec.toFixed(0)}** | ≥ ${TARGETS[r.drivers]} | ${r.floorMessagesPerSec.toFixed(0)} | ${r.ceilingJobsPerSec.toFixed(0)} | ${r.roundTripsPerMessage.toFixed(1)} | ${r.cpuMsPerMessage.node.toFixed(1)}, ${r.cpuMsPerMessage.postgres.toFixed(1)}, ${r.cpuMsPerMessage.redis.toFixed(1)} | ${r.task.p50} / ${r.task.p95} | ${r.endToEnd.p50.toFixed(0)} / ${r.endToEnd.p95.toFixed(0)} | ${Object.entries(
          r.routes,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} |`,
    ),
  ];
  const budget = [
    '| drivers | run | processes | CPU a message at the target (usable cores ÷ target) | pipeline | floor | own work alone | floor + own work |',
    '|---|---:|---|---:|---|---|---|---:|',
    ...results.map((r) => {
      const floorAndOwn = sumOf(r.floorCpuMsPerMessage) + sumOf(r.ownWorkCpuMsPerMessage);
      return `| ${r.drivers} | ${r.run} | ${processesLabel(r.workerProcesses)} | ${budgetMs(r.drivers).toFixed(1)} | ${cpuCell(r.cpuMsPerMessage)} | ${cpuCell(r.floorCpuMsPerMessage)} | ${cpuCell(r.ownWorkCpuMsPerMessage)} | ${floorAndOwn.toFixed(1)} |`;
    }),
  ];
  const steps = [
    '| drivers | run | processes | step | p50 (ms) | p95 (ms) |',
    '|---|---:|---|---|---:|---:|',
    ...results.flatMap((r) =>
      Object.entries(r.steps).map(
        ([name, s]) =>
          `| ${r.drivers} | ${r.run} | ${processesLabel(r.workerProcesses)} | ${name} | ${s.p50} | ${s.p95} |`,
      ),
    ),
  ];
  const firsts = new Map<string, RunResult>();
  for (const r of results) if (!firsts.has(r.drivers)) firsts.set(r.drivers, r);
  const shapes = [...firsts.values()].flatMap((r) => [
    '',
    `Statements per message, ${r.drivers} (run ${r.run}, ${r.roundTripsPerMessage.toFixed(1)} in all):`,
    '',
    '| statement (verb, first table) | per message |',
    '|---|---:|',
    ...r.shapes.map(([shape, n]) => `| \`${shape}\` | ${(n / r.messages).toFixed(2)} |`),
  ]);
  return [...main, '', ...budget, '', ...steps, ...shapes].join('\n');
}

async function main() {
  const rounds = Number(env.BENCH_ROUNDS ?? 2);
  const loadAtStart = os.loadavg()[0]?.toFixed(1);
  const results: RunResult[] = [];
  const wanted = settings.sets.split(',');
  for (let round = 1; round <= rounds; round++) {
    if (wanted.includes('embedded')) results.push(await run(embeddedSet(), round));
    if (wanted.includes('postgres')) {
      if (env.DATABASE_URL && env.REDIS_URL) {
        for (const workerProcesses of settings.workerProcessCounts)
          results.push(await run(await postgresSet(env.DATABASE_URL, env.REDIS_URL), round, workerProcesses));
      } else if (round === 1) log('DATABASE_URL and REDIS_URL are not both set: skipping PostgreSQL + Redis');
    }
  }
  const context = [
    `Machine: ${os.cpus().length} CPU cores (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; load average (1 min) ${loadAtStart} at the start and ${os.loadavg()[0]?.toFixed(1)} at the end.`,
    `Data: ${settings.chunks.toLocaleString('en-US')} chunks in ${settings.knowledgeBases === 1 ? 'one knowledge base' : `${settings.knowledgeBases} knowledge bases`} (local embedder, 1536 dimensions), ${settings.intents} intents × ${settings.examplesPerIntent} examples (half autonomous), persona with 2 boundaries; one sender (web chat) per message, half of whom met every intent before; half the messages repeat a knowledge sentence word for word.`,
    `LLM: the offline providers in this process (local embedder, extractive responder): a model that answers in 0 ms. ${settings.warmupPerProcess} warm-up messages per process running tasks first; ${settings.inFlight} receive() calls in flight; on PostgreSQL a pool of ${settings.pool} connections (DATABASE_POOL_SIZE); the window runs from the first receive() to the last agent-task.completed event and the last memory-extraction job.`,
    'Round trips: every statement the database driver executed in the window (BEGIN and COMMIT included), memory extraction and, on the embedded set, the queue and key-value store included. Step and task latencies from agent_tool_calls and agent_tasks.',
  ];
  log(`\n${tables(results)}\n`);
  if (settings.write && results.length > 0) {
    writeBenchSection('pipeline', 'Pipeline (`npm run bench:pipeline`)', context, tables(results));
  }
}

try {
  await main();
  process.exit(0);
} catch (error) {
  // Drizzle errors carry every parameter (vectors of the load): the message and cause are enough.
  const e = error as Error & { cause?: Error };
  console.error(e.message.slice(0, 2000), e.cause?.message ?? '');
  process.exit(1);
}
