/**
 * Large-corpus benchmark: the service as deployed (one `api` process and two
 * `worker` processes on PostgreSQL + Redis) over a knowledge base of hundreds
 * of thousands of chunks.
 *
 *   BENCH_DATABASE=postgres://…/db npm run bench:large-corpus
 *
 * BENCH_DATABASE names a database loaded by the retrieval benchmark and kept
 * (`BENCH_KEEP=1 BENCH_PG_CHUNKS=250000 npm run bench:retrieval`, which also
 * measures recall@10 against the exact search on it; for 384 dimensions add
 * BENCH_DIMENSIONS=384 there and EMBEDDING_DIMENSIONS=384 here). The
 * processes run the built service (`dist/main.js`) with the configuration
 * of this environment (SEARCH_INDEX_MEMORY_MB, EMBEDDING_DIMENSIONS…), a
 * bootstrap administrator, and the model offline (so in development mode).
 *
 * Measured: the time from starting the api process to its first answered
 * search (`POST /rag/draft`: embed, hybrid search over every knowledge base
 * of the department, the offline draft); then BENCH_QUERIES searches one at
 * a time after BENCH_WARMUP, p50 and p95; then the resident memory (VmRSS)
 * of each process. The workers run their consumers and recurring tasks; no
 * message is sent, so their figure is a worker's memory before any task.
 * Writes the table into docs/benchmarks.md between its markers (BENCH_WRITE=0 skips).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { log, machineLine, percentile, root, writeBenchSection } from './lib.js';

const env = process.env;
const settings = {
  database: env.BENCH_DATABASE ?? '',
  redis: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  queries: Number(env.BENCH_QUERIES ?? 200),
  warmup: Number(env.BENCH_WARMUP ?? 20),
  port: Number(env.BENCH_PORT ?? 3391),
  write: env.BENCH_WRITE !== '0',
};
const ADMIN = { email: 'bench-admin@example.test', password: 'bench-admin-password-1' };

/** Resident memory of a process in MiB, from /proc (Linux). */
function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function start(mode: 'api' | 'worker', extra: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'main.js'), mode], {
    env: {
      ...env,
      // Offline model: production mode would require LLM_API_KEY.
      NODE_ENV: 'development',
      DATABASE_URL: settings.database,
      REDIS_URL: settings.redis,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      JWT_SECRET: env.JWT_SECRET ?? 'bench-large-corpus-secret-at-least-32-chars',
      LLM_API_KEY: '',
      LLM_BASE_URL: '',
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** Polls until the api answers a login; answers the token. */
async function login(base: string, deadlineMs: number): Promise<string> {
  for (;;) {
    try {
      const response = await post(`${base}/api/v1/auth/login`, ADMIN);
      if (response.ok) return ((await response.json()) as { token: string }).token;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadlineMs) throw new Error('the api did not answer a login in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A question of the corpus's words: three words of one topic, two general ones (as bench/retrieval.ts writes chunks). */
function question(n: number): string {
  const topic = (n * 7) % 50;
  const words = [0, 1, 2].map((i) => `t${topic}w${(n * 31 + i * 67) % 200}`);
  return [...words, `g${(n * 13) % 400}`, `g${(n * 17) % 4000}`].join(' ');
}

const HEADER = [
  '| chunks × dimensions | SEARCH_INDEX_MEMORY_MB | time to serve | p50 | p95 | resident api / worker / worker | measured |',
  '| --- | --- | --- | --- | --- | --- | --- |',
];

/** The section's table with `row` in place of an earlier row of the same corpus (its first cell). */
function tableWith(row: string): string {
  const file = readFileSync(path.join(root, 'docs', 'benchmarks.md'), 'utf8');
  const start = file.indexOf('<!-- bench:large-corpus:start -->');
  const end = file.indexOf('<!-- bench:large-corpus:end -->');
  const earlier = start >= 0 && end > start ? file.slice(start, end).split('\n') : [];
  const corpus = row.split('|')[1];
  const kept = earlier.filter((line) => /^\| [\d,]+ × \d+ \|/.test(line) && line.split('|')[1] !== corpus);
  return [...HEADER, ...kept, row].join('\n');
}

async function main() {
  if (!settings.database)
    throw new Error('BENCH_DATABASE must name a loaded database (see the head of this file)');
  const client = new pg.Client({ connectionString: settings.database });
  await client.connect();
  const facts = await client.query<{ department: string; chunks: string; dims: number | null }>(
    `SELECT (SELECT department_id FROM knowledge_bases ORDER BY created_at LIMIT 1) AS department,
      (SELECT count(*) FROM chunks) AS chunks,
      (SELECT vector_dims(embedding) FROM chunks WHERE embedding IS NOT NULL LIMIT 1) AS dims`,
  );
  const info = await client.query<{ version: string; vector: string }>(
    `SELECT current_setting('server_version') AS version,
      (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector`,
  );
  await client.end();
  const { department, chunks, dims } = facts.rows[0]!;
  const budget = env.SEARCH_INDEX_MEMORY_MB ?? '256 (default)';
  log(`${chunks} chunks × ${dims} dimensions; SEARCH_INDEX_MEMORY_MB ${budget}`);

  const base = `http://127.0.0.1:${settings.port}`;
  const started = Date.now();
  const api = start('api', { PORT: String(settings.port), HOST: '127.0.0.1' });
  const workers = [0, 1].map((i) => start('worker', { METRICS_PORT: String(settings.port + 1 + i) }));
  const children = [api, ...workers];
  try {
    const token = await login(base, started + 180_000);
    const draft = async (text: string) => {
      const at = performance.now();
      const response = await post(`${base}/api/v1/rag/draft`, { departmentId: department, text }, token);
      if (!response.ok) throw new Error(`rag/draft answered ${response.status}: ${await response.text()}`);
      await response.json();
      return performance.now() - at;
    };
    const firstMs = await draft(question(0));
    const toServeS = (Date.now() - started) / 1000;
    log(`time to serve: ${toServeS.toFixed(1)} s (first search ${firstMs.toFixed(0)} ms)`);
    for (let i = 1; i <= settings.warmup; i++) await draft(question(i));
    const latencies: number[] = [];
    for (let i = 0; i < settings.queries; i++) latencies.push(await draft(question(1000 + i)));
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const rss = children.map((child) => residentMiB(child.pid!));
    log(`search p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
    log(
      `resident: api ${rss[0]!.toFixed(0)} MiB, workers ${rss[1]!.toFixed(0)} and ${rss[2]!.toFixed(0)} MiB`,
    );
    const row = `| ${Number(chunks).toLocaleString('en')} × ${dims} | ${budget} | ${toServeS.toFixed(1)} s | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms | ${rss.map((r) => r.toFixed(0)).join(' / ')} MiB | ${new Date().toISOString().slice(0, 10)} |`;
    log(`\n${row}\n`);
    const context = [
      machineLine(),
      `PostgreSQL ${info.rows[0]?.version}, pgvector ${info.rows[0]?.vector}, default settings (shared_buffers 128 MB); one api and two worker processes of the built service; ${settings.queries} searches (\`POST /rag/draft\`) one at a time after ${settings.warmup} warm-up ones.`,
    ];
    if (settings.write) writeBenchSection('large-corpus', 'Large corpus', context, tableWith(row));
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

await main();
