/**
 * What the benchmarks share: logging, the scratch PostgreSQL + Redis driver
 * set, percentiles, the machine line and writing one section of
 * docs/benchmarks.md between a benchmark's markers.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminQuery } from '../test/global-setup.js';
import { deleteRedisKeys } from '../test/redis.js';

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

export const log = (message: string) => process.stdout.write(`${message}\n`);

/** The value at percentile `p` (0–100) of `values`, nearest rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** One line describing the machine, for a section's context list. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `Machine: ${os.cpus().length} CPU cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; PostgreSQL and Redis on the same machine.`;
}

/** A scratch database next to DATABASE_URL and a Redis key prefix of its own, removed by `cleanup`. */
export interface ScratchPostgres {
  name: 'PostgreSQL + Redis';
  databaseUrl: string;
  redisPrefix: string;
  env: { DATABASE_URL: string; REDIS_URL: string; REDIS_PREFIX: string };
  /** Drops the database (unless `keep`) and deletes the prefix's Redis keys. */
  cleanup(options?: { keep?: boolean }): Promise<void>;
}

/** Creates a scratch database `aos_bench_<tag>_<random>` and a Redis prefix for one benchmark run. */
export async function scratchPostgres(
  tag: string,
  databaseUrl: string,
  redisUrl: string,
): Promise<ScratchPostgres> {
  const suffix = randomBytes(3).toString('hex');
  const name = `aos_bench_${tag}_${suffix}`;
  await adminQuery(databaseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const prefix = `aos-bench-${tag}-${suffix}`;
  return {
    name: 'PostgreSQL + Redis',
    databaseUrl: url.toString(),
    redisPrefix: prefix,
    env: { DATABASE_URL: url.toString(), REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
    async cleanup(options = {}) {
      if (options.keep) log(`  kept the scratch database ${name}`);
      else await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await deleteRedisKeys(redisUrl, `${prefix}*`);
    },
  };
}

/**
 * Runs a Node script in a child process (so a load generator does not share
 * the server's event loop) and answers the JSON object on its last line of
 * standard output.
 */
export function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as T);
    });
  });
}

/**
 * Replaces the section between `<!-- bench:<marker>:start -->` and its end
 * marker in docs/benchmarks.md (appending it under `heading` when missing).
 * The file is read right before writing: other benchmarks write their own
 * sections of it.
 */
export function writeBenchSection(
  marker: string,
  heading: string,
  context: readonly string[],
  body: string,
): void {
  const start = `<!-- bench:${marker}:start -->`;
  const end = `<!-- bench:${marker}:end -->`;
  const file = path.join(root, 'docs', 'benchmarks.md');
  const section = [
    start,
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:${marker}\`.`,
    '',
    ...context.map((c) => `- ${c}`),
    '',
    body,
    end,
  ].join('\n');
  const current = readFileSync(file, 'utf8');
  const next =
    current.includes(start) && current.includes(end)
      ? current.slice(0, current.indexOf(start)) + section + current.slice(current.indexOf(end) + end.length)
      : `${current.trimEnd()}\n\n## ${heading}\n\n${section}\n`;
  writeFileSync(file, next);
  log(`wrote ${path.relative(process.cwd(), file)}`);
}

/** CPU time (user + system, milliseconds) of this process and of the local PostgreSQL and Redis servers. */
export interface CpuTimes {
  node: number;
  postgres: number;
  redis: number;
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux.

/** A reading of {@link cpuTimes}: this process's CPU time, and each server process's by pid. */
export interface CpuReading {
  node: number;
  servers: Map<string, { name: 'postgres' | 'redis'; ms: number }>;
}

/**
 * Reads the CPU time so far of this process (process.cpuUsage) and of every
 * `postgres` and `redis-server` process on the machine (/proc/<pid>/stat,
 * Linux only; none elsewhere). Two readings around a window give where the
 * window's CPU went ({@link cpuSpent}).
 */
export function cpuTimes(): CpuReading {
  const own = process.cpuUsage();
  const reading: CpuReading = { node: (own.user + own.system) / 1000, servers: new Map() };
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return reading;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const name = stat.slice(open + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After the name: state is field 3, utime field 14 and stime field 15 (1-based in proc(5)).
    const ms = (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
    if (name === 'postgres') reading.servers.set(pid, { name: 'postgres', ms });
    else if (name === 'redis-server') reading.servers.set(pid, { name: 'redis', ms });
  }
  return reading;
}

/**
 * The CPU spent between two readings of {@link cpuTimes}, process by
 * process: a server process that started inside the window counts whole,
 * one that exited inside it is not counted (its time before the window
 * would otherwise be taken off the others': a backend of the seeding that
 * closed during the window once made PostgreSQL's figure 0).
 */
export function cpuSpent(from: CpuReading, to: CpuReading): CpuTimes {
  const spent: CpuTimes = { node: to.node - from.node, postgres: 0, redis: 0 };
  for (const [pid, now] of to.servers) {
    const before = from.servers.get(pid);
    spent[now.name] += now.ms - (before?.name === now.name ? before.ms : 0);
  }
  return spent;
}

/** CPU times divided by the messages they were spent on. */
export function perMessage(spent: CpuTimes, messages: number): CpuTimes {
  return { node: spent.node / messages, postgres: spent.postgres / messages, redis: spent.redis / messages };
}

/**
 * Starts recording a CPU profile of this process; the answer stops it and
 * writes the profile to `file` (open it in Chrome DevTools or speedscope).
 */
export async function startProfile(file: string): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * With BENCH_PROFILE=<file>, records a CPU profile of this process while
 * `work` runs and writes it to <file>; otherwise just runs `work`.
 */
export async function profiled<T>(work: () => Promise<T>): Promise<T> {
  const file = process.env.BENCH_PROFILE;
  if (!file) return work();
  const stop = await startProfile(file);
  try {
    return await work();
  } finally {
    await stop();
    log(`  wrote the CPU profile of the measured window to ${file}`);
  }
}

/** The machine's load averages (1, 5 and 15 minutes), as `uptime` prints them. */
export function loadAverages(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}
