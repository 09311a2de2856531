/**
 * Fault benchmark: how soon the service works again after each fault of the
 * fault suite (test/faults/), at a larger scale and with a model that takes
 * seconds, next to the same stream without a fault measured in the same run.
 *
 *   npm run bench:faults
 *
 * The service is deployed as production runs it (test/faults/deployment.ts):
 * on PostgreSQL + Redis (when DATABASE_URL and REDIS_URL are set; a scratch
 * database, and a Redis server of the bench's own on a free port, so that
 * restarting it empty never touches the machine's Redis) one `api` and
 * BENCH_WORKER_PROCESSES (2) `worker` processes; embedded, one process on a
 * scratch DATA_DIR. The fake model answers after BENCH_MODEL_LATENCY_MS
 * (2000). Each run: BENCH_SENDERS (200) senders post BENCH_PER_SENDER (5)
 * channel A messages each, the next 1 to 3 s after the previous 200
 * (BENCH_GAP_MIN_MS, BENCH_GAP_MAX_MS), a tenth replayed; the fault comes
 * once half of the messages were accepted, while replies flow,
 * and the supervisor's part (starting a killed process again) is played at
 * once. The processes run dist/main.js, as `npm start` does (built first
 * when stale).
 *
 * Per fault: the first reply after it; the longest pause in replies from
 * the fault until every message was answered (how long work stood still;
 * target ≤ 10 s); the first reply to a message accepted after it; until every
 * message accepted before it was answered; and the fault suite's counts
 * (lost, unlogged repeats, senders out of order). The reference is the same
 * stream without a fault.
 *
 * Writes its table into docs/benchmarks.md between its markers (BENCH_WRITE=0 skips).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type FaultDeployment, startFaultDeployment } from '../test/faults/deployment.js';
import { type FaultRunResult, runWithFault } from '../test/faults/fault-run.js';
import { seededRandom } from './corpus.js';
import { loadAverages, log, machineLine, root, scratchPostgres, writeBenchSection } from './lib.js';

const env = process.env;
const settings = {
  senders: Number(env.BENCH_SENDERS ?? 200),
  perSender: Number(env.BENCH_PER_SENDER ?? 5),
  /** A sender's pause between a 200 and its next message, ms: the stream lasts about perSender × 2 s. */
  gapMs: [Number(env.BENCH_GAP_MIN_MS ?? 1000), Number(env.BENCH_GAP_MAX_MS ?? 3000)] as const,
  modelLatencyMs: Number(env.BENCH_MODEL_LATENCY_MS ?? 2000),
  workers: Number(env.BENCH_WORKER_PROCESSES ?? 2),
  sets: (env.BENCH_SETS ?? 'embedded,postgres').split(','),
  write: env.BENCH_WRITE !== '0',
};
/** The target: work resumes within 10 s of each fault (no pause in replies longer than that). */
const TARGET_RESUMED_MS = 10_000;

interface Fault {
  name: string;
  inject: (deployment: FaultDeployment) => Promise<void>;
}

const NO_FAULT: Fault = { name: 'none (10 % replayed): reference', inject: async () => undefined };
const DISTRIBUTED_FAULTS: Fault[] = [
  NO_FAULT,
  {
    name: 'kill -9 of a worker, started again',
    inject: (d) => d.workers[0]?.crashAndRestart() ?? Promise.resolve(),
  },
  { name: 'kill -9 of the api, started again', inject: (d) => d.front.crashAndRestart() },
  { name: 'Redis restarted empty', inject: (d) => d.redis?.restartEmpty() ?? Promise.resolve() },
  {
    name: 'database connections terminated',
    inject: async (d) => {
      await d.terminateBackends();
    },
  },
];
const EMBEDDED_FAULTS: Fault[] = [
  NO_FAULT,
  { name: 'kill -9 of the process, started again on its data', inject: (d) => d.front.crashAndRestart() },
];

interface Row {
  set: string;
  fault: string;
  result: FaultRunResult;
}

async function runSet(set: string, deployment: FaultDeployment, faults: Fault[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [index, fault] of faults.entries()) {
    const total = settings.senders * settings.perSender;
    const result = await runWithFault({
      stream: {
        stream: index + 1,
        webhookUrl: deployment.webhookUrl,
        appSecret: deployment.appSecret,
        phones: deployment.company.phones,
        perSender: settings.perSender,
        gapMs: settings.gapMs,
        replayRate: 0.1,
        random: seededRandom(index + 1),
      },
      graph: deployment.graph,
      faultAfterAccepted: Math.floor(total / 2),
      fault: () => fault.inject(deployment),
      unfinished: () => deployment.unfinished(),
      loggedDuplicates: () => deployment.loggedDuplicates(),
      settleTimeoutMs: 180_000,
    });
    log(
      `  ${set} · ${fault.name}: first reply ${seconds(result.firstReplyMs)}, longest pause ${seconds(result.longestPauseMs)}, ` +
        `new message answered ${seconds(result.resumedMs)}, backlog ${seconds(result.backlogMs)}, ` +
        `lost ${result.lost.length}, doubled ${result.doubled.length}, out of order ${result.outOfOrder.length} (load ${loadAverages()})`,
    );
    rows.push({ set, fault: fault.name, result });
  }
  return rows;
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);

async function main(): Promise<void> {
  // The processes run dist/main.js, as `npm start` does: built first when the sources are newer.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs')], { stdio: 'inherit' });
  log(machineLine());
  log(
    `${settings.senders} senders × ${settings.perSender} messages, model ${settings.modelLatencyMs} ms, fault after half accepted`,
  );
  const rows: Row[] = [];
  if (settings.sets.includes('embedded')) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'aos-bench-faults-'));
    const deployment = await startFaultDeployment({
      storage: { kind: 'embedded', dataDir },
      senders: settings.senders,
      modelLatencyMs: settings.modelLatencyMs,
      entry: 'built',
    });
    try {
      rows.push(...(await runSet('embedded', deployment, EMBEDDED_FAULTS)));
    } finally {
      await deployment.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (settings.sets.includes('postgres') && env.DATABASE_URL && env.REDIS_URL) {
    const scratch = await scratchPostgres('faults', env.DATABASE_URL, env.REDIS_URL);
    const deployment = await startFaultDeployment({
      storage: { kind: 'postgres', databaseUrl: scratch.databaseUrl },
      senders: settings.senders,
      modelLatencyMs: settings.modelLatencyMs,
      workers: settings.workers,
      entry: 'built',
    });
    try {
      rows.push(...(await runSet('PostgreSQL + Redis', deployment, DISTRIBUTED_FAULTS)));
    } finally {
      await deployment.close();
      await scratch.cleanup();
    }
  }

  const table = [
    '| storage | fault | first reply | longest pause | new message answered | backlog cleared | lost | unlogged repeats | logged repeats | senders out of order | webhook retries |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ set, fault, result }) =>
        `| ${set} | ${fault} | ${seconds(result.firstReplyMs)} | ${seconds(result.longestPauseMs)} | ${seconds(result.resumedMs)} | ${seconds(result.backlogMs)} | ${result.lost.length} | ${result.doubled.length} | ${result.loggedRepeats} | ${result.outOfOrder.length} | ${result.counts.retries} |`,
    ),
  ].join('\n');
  log(table);
  const missed = rows.filter(
    (row) => row.result.longestPauseMs === null || row.result.longestPauseMs > TARGET_RESUMED_MS,
  );
  log(
    missed.length === 0
      ? 'every fault: replies kept reaching the platform, no pause over 10 s'
      : `a pause over 10 s (or no reply) after ${missed.length} fault(s)`,
  );
  if (settings.write) {
    writeBenchSection(
      'faults',
      'Faults (`npm run bench:faults`)',
      [
        machineLine(),
        `${settings.senders} senders × ${settings.perSender} channel A messages each (the next ${settings.gapMs[0] / 1000} to ${settings.gapMs[1] / 1000} s after the previous 200, 10 % replayed), a model answering in ${settings.modelLatencyMs} ms; the fault once half were accepted, while replies flow. PostgreSQL + Redis: api and ${settings.workers} worker processes on a Redis of the bench's own.`,
        `Load average at the end: ${loadAverages()}.`,
        'First reply: from the fault to the first reply the platform received after it. Longest pause: the longest time without any reply reaching the platform, from the fault until every message was answered, that is how long work stood still (target: 10 s). New message answered: from the fault to the first reply to a message accepted after it (under this burst it includes the queue ahead of that message: compare the reference). Backlog cleared: until every message accepted before the fault was answered.',
      ],
      table,
    );
  }
}

await main();
process.exit(0);
