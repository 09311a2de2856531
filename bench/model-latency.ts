/**
 * Model-latency benchmark: time from a message's receipt to its delivery
 * decision when the chat model takes seconds to answer, next to the floor
 * (the model's latency alone) measured in the same run.
 *
 *   npm run bench:model-latency
 *
 * An OpenAI-compatible fake (test/fakes/llm-server.ts, in a process of its
 * own) answers chat completions after BENCH_MODEL_LATENCY_MS (default 2000)
 * and embeddings at once with the local embedder's vectors; the service runs
 * with LLM_API_KEY and LLM_BASE_URL pointed at it and its concurrency
 * settings at their defaults (BENCH_AGENT_TASK_CONCURRENCY,
 * BENCH_CPU_CONCURRENCY and BENCH_LLM_MAX_CONCURRENCY set them otherwise).
 *
 * Driver sets: embedded (one process: API, workers and a PGlite under a
 * scratch DATA_DIR) always; PostgreSQL + Redis when DATABASE_URL and
 * REDIS_URL are set (a scratch database and Redis prefix; this process is
 * the API, BENCH_WORKER_PROCESSES (default 2) worker processes run the
 * tasks, bench/pipeline-worker.ts). BENCH_SETS=embedded or =postgres runs one.
 *
 * Seeded with direct inserts: one department and namespace (two persona
 * boundaries), BENCH_CHUNKS (default 2000) chunks in one knowledge base,
 * 12 intents of 20 examples stored through the intents service (half
 * autonomous), one sender per message. BENCH_WARMUP (default 100) messages
 * first, unmeasured. Then, each from senders of their own, through the
 * inbound service as the channels call it:
 *
 * - burst: BENCH_BURST (default 200) messages at once;
 * - sustained (PostgreSQL + Redis only, unless BENCH_SUSTAIN_EMBEDDED=1):
 *   BENCH_RATE (default 40) messages a second for BENCH_SUSTAIN_SECONDS
 *   (default 60), the undecided messages counted every second.
 *
 * Time to decision: from the start of receive() to the task's
 * `agent-task.completed` event, heard on the bus. Floor: BENCH_BURST chat
 * calls at once from this process to the same fake through the same
 * provider, without the service.
 *
 * Writes its table into docs/benchmarks.md between its markers (BENCH_WRITE=0 skips).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type Container, createContainer } from '../src/container.js';
import { createWorkLimit } from '../src/core/concurrency/work-limit.js';
import { loadConfig } from '../src/core/config/config.js';
import { openPglite, openPostgres, rowsOf } from '../src/core/db/client.js';
import { agentTasks } from '../src/core/db/schema/index.js';
import { vectorLiteral } from '../src/core/db/vector.js';
import { createLocalEmbedder } from '../src/core/llm/local-embedder.js';
import { createOpenAiChat } from '../src/core/llm/openai-compatible.js';
import { createLogger } from '../src/core/logger.js';
import { subscribeEvents } from '../src/core/realtime/events.js';
import { scanChunks } from '../src/modules/knowledge/chunk-safety.js';
import { DETECTOR_FINGERPRINT } from '../src/modules/rag/injection-detection.js';
import { keywordIndexEntry } from '../src/modules/rag/text-analysis.js';
import { startWorkers } from '../src/workers/index.js';
import { startFakeLlmServer } from '../test/fakes/llm-server.js';
import { seedDepartment, seededRandom, seedIntentsAndPeople, vocabulary } from './corpus.js';
import {
  loadAverages,
  log,
  machineLine,
  percentile,
  root,
  scratchPostgres,
  writeBenchSection,
} from './lib.js';
import { forkWorkers, type WorkerProcesses } from './worker-processes.js';

const env = process.env;
const settings = {
  latencyMs: Number(env.BENCH_MODEL_LATENCY_MS ?? 2000),
  chunks: Number(env.BENCH_CHUNKS ?? 2000),
  intents: 12,
  examplesPerIntent: 20,
  warmup: Number(env.BENCH_WARMUP ?? 100),
  burst: Number(env.BENCH_BURST ?? 200),
  rate: Number(env.BENCH_RATE ?? 40),
  sustainSeconds: Number(env.BENCH_SUSTAIN_SECONDS ?? 60),
  sustainEmbedded: env.BENCH_SUSTAIN_EMBEDDED === '1',
  workerProcesses: Number(env.BENCH_WORKER_PROCESSES ?? 2),
  sets: (env.BENCH_SETS ?? 'embedded,postgres').split(','),
  write: env.BENCH_WRITE !== '0',
  /** Service settings the run overrides; unset ones keep the service's defaults. */
  overrides: Object.fromEntries(
    [
      ['AGENT_TASK_CONCURRENCY', env.BENCH_AGENT_TASK_CONCURRENCY],
      ['AGENT_TASK_CPU_CONCURRENCY', env.BENCH_CPU_CONCURRENCY],
      ['LLM_MAX_CONCURRENCY', env.BENCH_LLM_MAX_CONCURRENCY],
    ].filter((entry): entry is [string, string] => Boolean(entry[1])),
  ),
};
/** The targets for the burst's p95 to decision, and the sustained rate's. */
const TARGET_P95_MS: Record<string, number> = { embedded: 10_000, 'PostgreSQL + Redis': 5000 };

const EMBEDDING_MODEL = 'bench-embedding';

// ---------------------------------------------------------------- the fake, in a process of its own

/** Run as `model-latency.ts fake`: serves the fake until its parent disconnects. */
async function serveFake(): Promise<void> {
  const fake = await startFakeLlmServer({ latencyMs: settings.latencyMs });
  process.send?.({ baseUrl: fake.baseUrl, apiKey: fake.apiKey });
  // Each request answers the most chat completions in flight at once since the previous one.
  process.on('message', () => {
    const maxInFlight = fake.maxInFlight();
    fake.reset();
    process.send?.({ maxInFlight });
  });
  process.on('disconnect', () => {
    void fake.close().then(() => process.exit(0));
  });
}

interface FakeProcess {
  baseUrl: string;
  apiKey: string;
  /** The most chat completions it had in flight at once since the last call. */
  maxInFlightSinceLast(): Promise<number>;
  close(): void;
}

async function startFake(): Promise<FakeProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['fake'], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const { baseUrl, apiKey } = await next<{ baseUrl: string; apiKey: string }>();
  return {
    baseUrl,
    apiKey,
    async maxInFlightSinceLast() {
      const answer = next<{ maxInFlight: number }>();
      child.send({ reset: true });
      return (await answer).maxInFlight;
    },
    close: () => child.disconnect(),
  };
}

// ---------------------------------------------------------------- data

interface Seeded {
  knowledgeBaseIds: string[];
  senderIds: string[];
  messages: string[];
}

/** A department, namespace, knowledge base, intents and `count` senders with a message each. */
async function seed(container: Container, count: number): Promise<Seeded> {
  const { db } = container;
  const random = seededRandom(7);
  const words = vocabulary(random, settings.intents);
  const suffix = randomBytes(3).toString('hex');
  const { department, namespace } = await seedDepartment(container, suffix);
  // The fake answers the local embedder's vectors: chunks stored with them under the configured
  // embedder's version are what ingestion through the fake would have stored.
  const embedder = createLocalEmbedder(container.config.embeddingDimensions);
  const version = container.llm.embeddings.version ?? `${EMBEDDING_MODEL}:${embedder.dimensions}`;
  const [kb] = rowsOf<{ id: string }>(
    await db.execute(
      sql`INSERT INTO knowledge_bases (name, department_id) VALUES ('Bench KB', ${department.id}) RETURNING id`,
    ),
  );
  const [doc] = rowsOf<{ id: string }>(
    await db.execute(sql`INSERT INTO documents (knowledge_base_id, department_id, title, type, status)
      VALUES (${kb!.id}, ${department.id}, 'Handbook', 'txt', 'ready') RETURNING id`),
  );
  const sentences: string[] = [];
  for (let from = 0; from < settings.chunks; from += 200) {
    const contents = Array.from({ length: Math.min(200, settings.chunks - from) }, () => {
      const topic = Math.floor(random() * settings.intents);
      const parts = Array.from({ length: 5 }, () => words.sentence(topic));
      sentences.push(parts[0]!);
      return `${parts.join('. ')}.`;
    });
    const verdicts = scanChunks(contents);
    const rows = JSON.stringify(
      contents.map((c, n) => {
        const entry = keywordIndexEntry(c);
        return {
          i: from + n,
          c,
          e: vectorLiteral(embedder.embedOne(c)),
          t: entry.terms,
          n: entry.termCount,
          j: verdicts[n] ?? null,
        };
      }),
    );
    await db.execute(sql`INSERT INTO chunks (document_id, knowledge_base_id, chunk_index, content, token_count, embedding, terms, term_count, embedder, held_back, injection, scanned_by)
      SELECT ${doc!.id}, ${kb!.id}, (t.v ->> 'i')::int, t.v ->> 'c', 60, (t.v ->> 'e')::vector,
        (t.v ->> 't')::tsvector, (t.v ->> 'n')::int, ${version},
        jsonb_typeof(t.v -> 'j') = 'object', nullif(t.v -> 'j', 'null'::jsonb), ${DETECTOR_FINGERPRINT}
      FROM jsonb_array_elements(${rows}::jsonb) AS t(v)`);
  }
  await db.execute(sql`ANALYZE chunks`);
  const senderIds = await seedIntentsAndPeople(container, {
    departmentId: department.id,
    namespaceId: namespace.id,
    intents: settings.intents,
    examplesPerIntent: settings.examplesPerIntent,
    words,
    suffix,
    senderCount: count,
  });
  for (const table of ['users', 'employee_profiles', 'intent_examples', 'intent_trust'])
    await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
  const messages = Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? `${words.pick(sentences)}?` : words.question(Math.floor(random() * settings.intents)),
  );
  return { knowledgeBaseIds: [kb!.id], senderIds, messages };
}

// ---------------------------------------------------------------- measuring

interface Measured {
  messages: number;
  /** Receipt to decision, milliseconds, one per decided message. */
  toDecision: number[];
  failed: number;
  seconds: number;
  /** Messages received but not decided, sampled once a second (sustained runs). */
  undecided: number[];
}

/**
 * Hears every task's end on the bus; `send` receives one message and
 * remembers when; `settled` resolves once every sent message's task ended.
 */
async function decisions(container: Container) {
  const sentAt = new Map<string, number>();
  const endedAt = new Map<string, number>();
  const failed = new Set<string>();
  let waiting: (() => void) | null = null;
  const unsubscribe = await subscribeEvents(container.bus, 'agent-task', (envelope) => {
    if (envelope.event !== 'agent-task.completed' && envelope.event !== 'agent-task.failed') return;
    const { taskId } = envelope.payload as { taskId: string };
    if (endedAt.has(taskId)) return;
    endedAt.set(taskId, performance.now());
    if (envelope.event === 'agent-task.failed') failed.add(taskId);
    if (waiting && [...sentAt.keys()].every((id) => endedAt.has(id))) waiting();
  });
  return {
    async send(senderId: string, text: string, tag: string) {
      const before = performance.now();
      const { taskId } = await container.pipeline.inbound.receive({
        channel: 'web',
        channelUserId: senderId,
        userId: senderId,
        text,
        channelMessageId: tag,
      });
      if (taskId) sentAt.set(taskId, before);
    },
    undecided: () => [...sentAt.keys()].filter((id) => !endedAt.has(id)).length,
    async settled(): Promise<Omit<Measured, 'seconds' | 'undecided'>> {
      if (![...sentAt.keys()].every((id) => endedAt.has(id))) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 600_000);
          waiting = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await unsubscribe();
      const decided = [...sentAt.keys()].filter((id) => endedAt.has(id) && !failed.has(id));
      return {
        messages: sentAt.size,
        toDecision: decided.map((id) => endedAt.get(id)! - sentAt.get(id)!),
        failed: sentAt.size - decided.length,
      };
    },
  };
}

/** Every message at once (32 receive() calls in flight, as many clients would). */
async function burst(
  container: Container,
  senders: string[],
  texts: string[],
  tag: string,
): Promise<Measured> {
  const heard = await decisions(container);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < texts.length) {
        const i = next++;
        await heard.send(senders[i]!, texts[i]!, `${tag}-${i}`);
      }
    }),
  );
  const settled = await heard.settled();
  return { ...settled, seconds: (performance.now() - started) / 1000, undecided: [] };
}

/** `rate` messages a second for `seconds`, each sent at its time; the undecided counted every second. */
async function sustained(
  container: Container,
  senders: string[],
  texts: string[],
  tag: string,
): Promise<Measured> {
  const heard = await decisions(container);
  const count = Math.min(texts.length, settings.rate * settings.sustainSeconds);
  const undecided: number[] = [];
  const sampler = setInterval(() => undecided.push(heard.undecided()), 1000);
  const started = performance.now();
  const sends: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / settings.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(heard.send(senders[i]!, texts[i]!, `${tag}-${i}`));
  }
  await Promise.all(sends);
  const settled = await heard.settled();
  clearInterval(sampler);
  return { ...settled, seconds: (performance.now() - started) / 1000, undecided };
}

/** The floor: `count` chat calls at once through the provider, without the service. */
async function modelFloor(fake: FakeProcess, count: number): Promise<number[]> {
  const chat = createOpenAiChat({
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    model: 'bench-chat',
    limit: createWorkLimit(count),
  });
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const started = performance.now();
      await chat.complete({ messages: [{ role: 'user', content: `floor question ${i}` }] });
      return performance.now() - started;
    }),
  );
}

// ---------------------------------------------------------------- runs

interface Row {
  drivers: string;
  processes: string;
  workload: string;
  settings: string;
  result: Measured;
  floor: number[];
  maxModelCallsInFlight: number;
}

async function runSet(drivers: 'embedded' | 'PostgreSQL + Redis', fake: FakeProcess): Promise<Row[]> {
  const pg = drivers !== 'embedded';
  const scratch = pg ? await scratchPostgres('latency', env.DATABASE_URL!, env.REDIS_URL!) : null;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aos-bench-latency-'));
  const configEnv: Record<string, string> = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    LLM_API_KEY: fake.apiKey,
    LLM_BASE_URL: fake.baseUrl,
    LLM_EMBEDDING_MODEL: EMBEDDING_MODEL,
    LLM_MODEL: 'bench-chat',
    ...settings.overrides,
    ...(scratch?.env ?? {}),
  };
  const config = loadConfig(configEnv, pg ? 'api' : 'all');
  const logger = createLogger(config.logLevel, { destination: '/dev/null' });
  const database = pg
    ? openPostgres(scratch!.databaseUrl, config.databasePoolSize)
    : await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
  const container = await createContainer(config, { logger, database });
  const processes = pg ? `1 api + ${settings.workerProcesses} workers` : 'one process';
  const used = `tasks ${config.agentTaskConcurrency}, CPU steps ${config.agentTaskCpuConcurrency}, model calls ${config.llm.maxConcurrency} a process`;
  let workers: WorkerProcesses | null = null;
  const rows: Row[] = [];
  try {
    const sustain = pg || settings.sustainEmbedded;
    const sustainCount = sustain ? settings.rate * settings.sustainSeconds : 0;
    const total = settings.warmup + settings.burst + sustainCount;
    log(`${drivers}: seeding ${settings.chunks} chunks and ${total} senders (${used})`);
    const data = await seed(container, total);
    await container.rag.repositories.rag.warmSearch(data.knowledgeBaseIds);
    if (pg) workers = await forkWorkers(settings.workerProcesses, configEnv, data.knowledgeBaseIds);
    else startWorkers(container);
    let offset = 0;
    const slice = (n: number) => {
      const range = [offset, offset + n] as const;
      offset += n;
      return { senders: data.senderIds.slice(...range), texts: data.messages.slice(...range) };
    };
    const warm = slice(settings.warmup);
    if (settings.warmup > 0) await burst(container, warm.senders, warm.texts, 'warm');

    const load = loadAverages();
    const burstSlice = slice(settings.burst);
    await fake.maxInFlightSinceLast();
    const floor = await modelFloor(fake, settings.burst);
    await fake.maxInFlightSinceLast();
    const burstResult = await burst(container, burstSlice.senders, burstSlice.texts, 'burst');
    const burstMax = await fake.maxInFlightSinceLast();
    rows.push({
      drivers,
      processes,
      workload: `burst of ${settings.burst}`,
      settings: `${used}; load ${load} → ${loadAverages()}`,
      result: burstResult,
      floor,
      maxModelCallsInFlight: burstMax,
    });
    report(rows.at(-1)!);
    if (sustain) {
      const load2 = loadAverages();
      const s = slice(sustainCount);
      const sustainedResult = await sustained(container, s.senders, s.texts, 'rate');
      rows.push({
        drivers,
        processes,
        workload: `${settings.rate}/s for ${settings.sustainSeconds} s`,
        settings: `${used}; load ${load2} → ${loadAverages()}`,
        result: sustainedResult,
        floor,
        maxModelCallsInFlight: await fake.maxInFlightSinceLast(),
      });
      report(rows.at(-1)!);
    }
    const [failedTasks] = rowsOf<{ n: number }>(
      await container.db.execute(
        sql`SELECT count(*)::int AS n FROM ${agentTasks} WHERE ${agentTasks.status} <> 'done'`,
      ),
    );
    if (failedTasks?.n) log(`  ${failedTasks.n} tasks did not end done`);
    return rows;
  } finally {
    await workers?.close();
    await container.close();
    logger.flush();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.cleanup();
  }
}

const ms = (values: number[], p: number) => percentile(values, p).toFixed(0);

function report(row: Row): void {
  const r = row.result;
  log(
    `  ${row.workload}: ${r.messages} messages, to decision p50 ${ms(r.toDecision, 50)} ms p95 ${ms(r.toDecision, 95)} ms ` +
      `(floor, the model alone: p50 ${ms(row.floor, 50)} p95 ${ms(row.floor, 95)}), ${(r.messages / r.seconds).toFixed(1)} decided/s, ` +
      `${r.failed} failed, at most ${row.maxModelCallsInFlight} model calls in flight` +
      (r.undecided.length ? `, undecided each second: ${r.undecided.join(' ')}` : ''),
  );
}

/** The undecided messages over a sustained run: at a quarter, half, three quarters and the end of its sending. */
function undecidedCell(values: number[]): string {
  if (values.length === 0) return '';
  const at = (f: number) => values[Math.min(values.length - 1, Math.floor(values.length * f))] ?? 0;
  return `${at(0.25)}, ${at(0.5)}, ${at(0.75)}, ${values[Math.min(values.length - 1, settings.sustainSeconds - 1)]} (max ${Math.max(...values)})`;
}

function table(rows: Row[]): string {
  return [
    '| drivers | processes | workload | messages | to decision p50 / p95 (ms) | target p95 | floor: the model alone p50 / p95 (ms) | decided / s | undecided at ¼, ½, ¾, end of sending | model calls in flight (max) | failed | settings; load (1, 5, 15 min) before → after |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.drivers} | ${row.processes} | ${row.workload} | ${row.result.messages} | **${ms(row.result.toDecision, 50)} / ${ms(row.result.toDecision, 95)}** | ≤ ${TARGET_P95_MS[row.drivers]} | ${ms(row.floor, 50)} / ${ms(row.floor, 95)} | ${(row.result.messages / row.result.seconds).toFixed(1)} | ${undecidedCell(row.result.undecided)} | ${row.maxModelCallsInFlight} | ${row.result.failed} | ${row.settings} |`,
    ),
  ].join('\n');
}

async function main() {
  const loadAtStart = loadAverages();
  const fake = await startFake();
  const rows: Row[] = [];
  try {
    if (settings.sets.includes('embedded')) rows.push(...(await runSet('embedded', fake)));
    if (settings.sets.includes('postgres')) {
      if (env.DATABASE_URL && env.REDIS_URL) rows.push(...(await runSet('PostgreSQL + Redis', fake)));
      else log('DATABASE_URL and REDIS_URL are not both set: skipping PostgreSQL + Redis');
    }
  } finally {
    fake.close();
  }
  const context = [
    `${machineLine()} Load average (1, 5, 15 min) ${loadAtStart} at the start and ${loadAverages()} at the end (the machine may be shared: compare with the floor).`,
    `Model: an OpenAI-compatible fake in a process of its own (test/fakes/llm-server.ts) answering chat completions in ${settings.latencyMs} ms and embeddings at once; the floor is ${settings.burst} chat calls at once to it through the same provider, without the service, in the same run.`,
    `Data: ${settings.chunks} chunks in one knowledge base, ${settings.intents} intents × ${settings.examplesPerIntent} examples (half autonomous), persona with 2 boundaries; one sender (web chat) per message; ${settings.warmup} warm-up messages first.`,
    'Time to decision: from receive() (the inbound service, as a channel calls it) to the task’s agent-task.completed event heard on the bus. Undecided: messages received and not yet decided, sampled every second of a sustained run.',
  ];
  log(`\n${table(rows)}\n`);
  if (settings.write && rows.length > 0)
    writeBenchSection('model-latency', 'Model latency (`npm run bench:model-latency`)', context, table(rows));
}

if (process.argv[2] === 'fake') {
  await serveFake();
} else {
  try {
    await main();
    process.exit(0);
  } catch (error) {
    const e = error as Error & { cause?: Error };
    console.error(e.message.slice(0, 2000), e.cause?.message ?? '');
    process.exit(1);
  }
}
