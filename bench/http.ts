/**
 * HTTP request-path benchmark: what one request costs the service, against a
 * bare Fastify hello world measured in the same run.
 *
 *   npm run bench:http
 *
 * Driver sets: embedded (PGlite on disk under a scratch DATA_DIR, the
 * database key-value store and queue) always; PostgreSQL + Redis when
 * DATABASE_URL and REDIS_URL are set (a scratch database of its own is
 * created next to DATABASE_URL and dropped at the end, and Redis keys go
 * under a prefix of their own, deleted at the end).
 *
 * Each driver set builds the service exactly as main.ts does (container,
 * app, the process logger writing asynchronously to /dev/null at `info`, so
 * the request log is paid for) and listens on a loopback port; the hello
 * world is a bare Fastify app without logger on another port of the same
 * process. Load comes from autocannon in a child process (BENCH_CONNECTIONS,
 * default 20 connections), BENCH_WARMUP seconds (default 2) of warm-up, then
 * BENCH_DURATION seconds (default 5) measured: GET /health, authenticated
 * GET /api/v1/me and GET /api/v1/departments (an admin, 20 departments),
 * each in BENCH_ROUNDS rounds (default 3) of hello world then endpoint. Each
 * row shows the round of median share: requests/s, p50 and p99 latency and
 * requests/s as a share of that round's hello world.
 *
 * A second table times the two ways of resolving a token's actor in this
 * process (the prepared user + role query, and the cache validated by the
 * access stamp), one call at a time and 20 at once.
 *
 * Writes the tables into docs/benchmarks.md between its markers (BENCH_WRITE=0 skips).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { type Container, createContainer } from '../src/container.js';
import { accessStampsOf, NO_ACCESS_STAMPS } from '../src/core/auth/access-stamps.js';
import { loadConfig } from '../src/core/config/config.js';
import { createLogger } from '../src/core/logger.js';
import { createActorResolver } from '../src/modules/users/actor-resolver.js';
import { log, machineLine, scratchPostgres, writeBenchSection } from './lib.js';

const env = process.env;
const settings = {
  connections: Number(env.BENCH_CONNECTIONS ?? 20),
  warmupSec: Number(env.BENCH_WARMUP ?? 2),
  durationSec: Number(env.BENCH_DURATION ?? 5),
  /** Rounds per endpoint, each a hello world run then the endpoint run; the median share is kept. */
  rounds: Number(env.BENCH_ROUNDS ?? 3),
  departments: 20,
  write: env.BENCH_WRITE !== '0',
};
/** What the service must reach on authenticated GET /me, as a share of the hello world's requests/s. */
const TARGETS: Record<string, number> = { embedded: 0.08, 'PostgreSQL + Redis': 0.25 };

const require = createRequire(import.meta.url);
const AUTOCANNON = path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js');

interface Measured {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
}

interface Row extends Measured {
  drivers: string;
  endpoint: string;
  ratio: number;
}

interface ResolverRow {
  drivers: string;
  strategy: string;
  sequentialUs: number;
  concurrentPerSec: number;
}

/** Runs autocannon in a child process, so the load generator does not share the server's event loop. */
function autocannon(url: string, durationSec: number, headers: Record<string, string>): Promise<Measured> {
  const args = [AUTOCANNON, '--json', '-c', String(settings.connections), '-d', String(durationSec)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(out.trim().split('\n').pop()!) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
      };
      resolve({
        requestsPerSec: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx + result.errors,
      });
    });
  });
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<Measured> {
  if (settings.warmupSec > 0) await autocannon(url, settings.warmupSec, headers);
  return autocannon(url, settings.durationSec, headers);
}

async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

async function helloWorld(): Promise<FastifyInstance> {
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  return app;
}

/** An admin with a token, and departments enough for a full first page. */
async function seed(container: Container): Promise<{ authorization: string }> {
  const { repositories } = container;
  const suffix = randomBytes(3).toString('hex');
  const home = await repositories.departments.insert({
    name: `Bench home ${suffix}`,
    slug: `bench-${suffix}`,
  });
  for (let i = 1; i < settings.departments; i++) {
    await repositories.departments.insert({ name: `Bench ${i} ${suffix}`, slug: `bench-${i}-${suffix}` });
  }
  const admin = await repositories.roles.findBySlug('admin');
  const user = await repositories.users.insertWithProfile({
    email: `bench-${suffix}@example.test`,
    name: 'Bench Admin',
    passwordHash: null,
    role: admin!.slug,
    roleId: admin!.id,
    departmentId: home.id,
  });
  return { authorization: `Bearer ${container.tokens.sign(user.id, user.tokenVersion)}` };
}

/**
 * Times the two ways of resolving a token's actor on this driver set: the
 * prepared user + role query on every call, and the cache validated by the
 * deployment's access marks (none on PostgreSQL without Redis). One call at
 * a time, then 20 at once.
 */
async function timeResolvers(drivers: string, container: Container, userId: string): Promise<ResolverRow[]> {
  const users = container.repositories.users;
  const stamps = accessStampsOf(container.db);
  const strategies: Record<string, ReturnType<typeof createActorResolver>> = {
    'prepared query': createActorResolver(users, NO_ACCESS_STAMPS),
  };
  if (stamps.kind !== 'none') strategies[`cache + ${stamps.kind} marks`] = createActorResolver(users, stamps);
  const rows: ResolverRow[] = [];
  const claims = { sub: userId, tv: 0, iat: 0, exp: 0 };
  for (const [strategy, resolve] of Object.entries(strategies)) {
    for (let i = 0; i < 200; i++) await resolve(claims);
    const sequential = 2000;
    let started = process.hrtime.bigint();
    for (let i = 0; i < sequential; i++) await resolve(claims);
    const sequentialUs = Number(process.hrtime.bigint() - started) / 1e3 / sequential;
    const batches = 200;
    started = process.hrtime.bigint();
    for (let i = 0; i < batches; i++) await Promise.all(Array.from({ length: 20 }, () => resolve(claims)));
    const concurrentPerSec = (batches * 20) / (Number(process.hrtime.bigint() - started) / 1e9);
    rows.push({ drivers, strategy, sequentialUs, concurrentPerSec });
  }
  return rows;
}

interface DriverSet {
  name: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function run(set: DriverSet): Promise<{ rows: Row[]; resolvers: ResolverRow[] }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aos-bench-http-'));
  const config = loadConfig({
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    ...set.env,
  });
  const logger = createLogger(config.logLevel, { destination: '/dev/null' });
  const container = await createContainer(config, { logger });
  const app = await buildApp(container);
  const hello = await helloWorld();
  try {
    const headers = await seed(container);
    const base = await listen(app);
    const helloUrl = await listen(hello);
    const rows: Row[] = [];
    const print = (row: Row) =>
      log(
        `${set.name.padEnd(20)} ${row.endpoint.padEnd(40)} ${row.requestsPerSec.toFixed(0).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  ×${row.ratio.toFixed(3)}${row.non2xx ? `  (${row.non2xx} non-2xx!)` : ''}`,
      );
    const endpoints: Array<[string, string, Record<string, string>]> = [
      ['GET /health', `${base}/health`, {}],
      ['GET /api/v1/me (authenticated)', `${base}/api/v1/me`, headers],
      [`GET /api/v1/departments (${settings.departments} rows)`, `${base}/api/v1/departments`, headers],
    ];
    // Each round measures the hello world right before the endpoint, so a change in the
    // machine's load between rows moves both; the row keeps the round of median share.
    const references: Measured[] = [];
    for (const [endpoint, url, requestHeaders] of endpoints) {
      const rounds: Array<{ measured: Measured; ratio: number }> = [];
      for (let round = 0; round < settings.rounds; round++) {
        const reference = await measure(`${helloUrl}/`);
        references.push(reference);
        const measured = await measure(url, requestHeaders);
        rounds.push({ measured, ratio: measured.requestsPerSec / reference.requestsPerSec });
      }
      const median = rounds.sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)]!;
      rows.push({ drivers: set.name, endpoint, ...median.measured, ratio: median.ratio });
    }
    const reference = references.sort((x, y) => x.requestsPerSec - y.requestsPerSec)[
      Math.floor(references.length / 2)
    ]!;
    rows.unshift({
      drivers: set.name,
      endpoint: 'hello world (reference, median round)',
      ...reference,
      ratio: 1,
    });
    rows.forEach(print);
    const userId = JSON.parse(Buffer.from(headers.authorization.split('.')[1]!, 'base64url').toString()).sub;
    const resolvers = await timeResolvers(set.name, container, userId);
    for (const r of resolvers) {
      log(
        `${set.name.padEnd(20)} actor via ${r.strategy.padEnd(24)} ${r.sequentialUs.toFixed(0)} µs one at a time, ${r.concurrentPerSec.toFixed(0)}/s 20 at once`,
      );
    }
    return { rows, resolvers };
  } finally {
    await hello.close();
    await app.close();
    await container.close();
    logger.flush();
    rmSync(dataDir, { recursive: true, force: true });
    await set.cleanup();
  }
}

function tables(rows: Row[], resolvers: ResolverRow[]): string {
  const requests = [
    '| drivers | endpoint | requests/s | p50 (ms) | p99 (ms) | share of hello world |',
    '|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.drivers} | ${r.endpoint} | ${r.requestsPerSec.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.ratio.toFixed(3)} |`,
    ),
  ];
  const actor = [
    '| drivers | actor resolution | µs per call, one at a time | calls/s, 20 at once |',
    '|---|---|---:|---:|',
    ...resolvers.map(
      (r) =>
        `| ${r.drivers} | ${r.strategy} | ${r.sequentialUs.toFixed(0)} | ${r.concurrentPerSec.toFixed(0)} |`,
    ),
  ];
  return [...requests, '', ...actor].join('\n');
}

async function main(): Promise<void> {
  const sets: Array<() => Promise<DriverSet>> = [
    async () => ({ name: 'embedded', env: {}, cleanup: async () => undefined }),
  ];
  if (env.DATABASE_URL && env.REDIS_URL) {
    const databaseUrl = env.DATABASE_URL;
    const redisUrl = env.REDIS_URL;
    sets.push(() => scratchPostgres('http', databaseUrl, redisUrl));
  } else {
    log('DATABASE_URL and REDIS_URL are not both set: only the embedded drivers run.');
  }
  const loadBefore = os.loadavg()[0]!;
  const rows: Row[] = [];
  const resolvers: ResolverRow[] = [];
  for (const open of sets) {
    const result = await run(await open());
    rows.push(...result.rows);
    resolvers.push(...result.resolvers);
  }
  const loadAfter = os.loadavg()[0]!;
  const verdicts = rows
    .filter((r) => r.endpoint.startsWith('GET /api/v1/me'))
    .map((r) => {
      const target = TARGETS[r.drivers] ?? 0;
      return `${r.drivers}: GET /me at ${r.ratio.toFixed(3)} of the hello world (target ≥ ${target}): ${r.ratio >= target ? 'met' : 'MISSED'}`;
    });
  for (const verdict of verdicts) log(verdict);
  if (!settings.write) return;
  writeBenchSection(
    'http',
    'HTTP request path (`npm run bench:http`)',
    [
      machineLine(),
      `Load: autocannon in a child process, ${settings.connections} connections, ${settings.warmupSec} s warm-up then ${settings.durationSec} s measured per row; the server is this Node process (one event loop).`,
      'Reference: a bare Fastify hello world (no logger, no hooks) in the same process and the same run; "share" is requests/s over its requests/s.',
      'Service: built as main.ts builds it, LOG_LEVEL info with the request log written asynchronously to /dev/null; the caller is an admin, so /departments lists the first page of all 20 departments.',
      `Load average (1 min) of the machine at the start and end of the run: ${loadBefore.toFixed(1)} and ${loadAfter.toFixed(1)}; other work on the machine shows in the figures.`,
      ...verdicts,
    ],
    tables(rows, resolvers),
  );
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
