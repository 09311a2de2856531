/**
 * The fault suite: the service deployed as production runs it (PostgreSQL +
 * Redis: one api and two worker processes on a Redis of the suite's own;
 * embedded: one process on its DATA_DIR), a stream of channel A messages
 * from many senders (each posting its next message after the previous 200,
 * a tenth of deliveries replayed, some at once), and one fault injected
 * mid-stream. Counted at the fake platform: every accepted message answered
 * once (a repeat counts only when the service did not log it as a possible
 * duplicate), every sender's replies in its messages' order.
 * `npm run bench:faults` runs the same faults at a larger scale and times the
 * recovery (docs/benchmarks.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seededRandom } from '../../bench/corpus.js';
import { createTestDatabase, testDatabaseUrl } from '../database.js';
import { withDatabase } from '../global-setup.js';
import { type FaultDeployment, startFaultDeployment } from './deployment.js';
import { type FaultRunResult, runWithFault } from './fault-run.js';

const distributed = testDatabaseUrl() !== null && Boolean(process.env.REDIS_URL);
/**
 * Senders in the stream: the embedded drivers serve one process on one
 * PGlite connection, so a smaller stream (80 messages) makes the same
 * points there in half the time; bench:faults runs the large one.
 */
const SENDERS = distributed ? 40 : 16;
const PER_SENDER = 5;
const MODEL_LATENCY_MS = 200;
/** A fault and its recovery take seconds; the processes start in seconds too. */
const FAULT_TIMEOUT_MS = 150_000;

function expectClean(result: FaultRunResult) {
  expect(result.accepted).toBe(SENDERS * PER_SENDER);
  expect(result.lost).toEqual([]);
  expect(result.doubled).toEqual([]);
  expect(result.outOfOrder).toEqual([]);
}

let deployment: FaultDeployment;
let seed = 1;

async function run(fault: () => Promise<void>): Promise<FaultRunResult> {
  const result = await runWithFault({
    stream: {
      stream: seed,
      webhookUrl: deployment.webhookUrl,
      appSecret: deployment.appSecret,
      phones: deployment.company.phones,
      perSender: PER_SENDER,
      gapMs: [50, 250],
      replayRate: 0.1,
      random: seededRandom(seed++),
    },
    graph: deployment.graph,
    faultAfterAccepted: Math.floor((SENDERS * PER_SENDER) / 3),
    fault,
    unfinished: () => deployment.unfinished(),
    loggedDuplicates: () => deployment.loggedDuplicates(),
  });
  // The recovery figures in the run's output; bench:faults measures them at scale.
  const { lost, doubled, outOfOrder, ...figures } = result;
  console.info(
    JSON.stringify({ ...figures, lost: lost.length, doubled: doubled.length, outOfOrder: outOfOrder.length }),
  );
  return result;
}

describe.runIf(distributed)('faults on PostgreSQL + Redis (api and two worker processes)', () => {
  beforeAll(async () => {
    const handle = await createTestDatabase();
    const name = handle.location.split('/').pop() ?? '';
    await handle.close();
    deployment = await startFaultDeployment({
      storage: { kind: 'postgres', databaseUrl: withDatabase(testDatabaseUrl() ?? '', name) },
      senders: SENDERS,
      modelLatencyMs: MODEL_LATENCY_MS,
    });
  }, FAULT_TIMEOUT_MS);
  afterAll(() => deployment?.close(), FAULT_TIMEOUT_MS);

  it(
    'a tenth of deliveries replayed, no other fault',
    async () => {
      expectClean(await run(async () => undefined));
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'kill -9 of a worker process mid-stream, started again',
    async () => {
      const [worker] = deployment.workers;
      expectClean(await run(() => worker?.crashAndRestart() ?? Promise.resolve()));
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'kill -9 of the api process, started again while senders retry',
    async () => {
      expectClean(await run(() => deployment.front.crashAndRestart()));
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'Redis restarted empty mid-stream',
    async () => {
      expectClean(await run(() => deployment.redis?.restartEmpty() ?? Promise.resolve()));
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    "the service's database connections terminated mid-stream",
    async () => {
      let terminated = 0;
      expectClean(
        await run(async () => {
          terminated = await deployment.terminateBackends();
        }),
      );
      expect(terminated).toBeGreaterThan(0);
    },
    FAULT_TIMEOUT_MS,
  );
});

describe.runIf(!distributed)('faults on the embedded drivers (one process)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-fault-data-'));
  beforeAll(async () => {
    const dump = inject('pgliteDumpPath');
    deployment = await startFaultDeployment({
      storage: {
        kind: 'embedded',
        dataDir,
        ...(dump ? { loadDataDir: new Blob([readFileSync(dump)]) } : {}),
      },
      senders: SENDERS,
      modelLatencyMs: MODEL_LATENCY_MS,
    });
  }, FAULT_TIMEOUT_MS);
  afterAll(async () => {
    await deployment?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, FAULT_TIMEOUT_MS);

  it(
    'a tenth of deliveries replayed, no other fault',
    async () => {
      expectClean(await run(async () => undefined));
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    'the process killed (kill -9) and started again on its data while senders retry',
    async () => {
      expectClean(await run(() => deployment.front.crashAndRestart()));
    },
    FAULT_TIMEOUT_MS,
  );
});
