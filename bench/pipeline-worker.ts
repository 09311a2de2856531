/**
 * A worker process of bench/pipeline.ts's distributed run: the service's
 * `worker` half (what `node dist/main.js worker` starts) on the benchmark's
 * scratch database and Redis prefix, counting its statements and CPU for
 * the parent. Forked by bench/pipeline.ts with the configuration in its
 * environment; it talks over IPC:
 *
 *   → `{ ready: true }`            its vector indexes loaded and its workers started
 *   ← `{ measure: 'start' }`       counting from now (answers `{ started: true }`)
 *   ← `{ measure: 'stop' }`        answers {@link WorkerFigures}
 *   ← `{ close: true }`            closes the service and exits
 *
 * BENCH_KNOWLEDGE_BASES (comma-separated ids) names the knowledge bases whose
 * vector indexes it loads before it says ready, as the parent does for its
 * own. With BENCH_PROFILE=<file>, it writes the CPU profile of its window to
 * <file>.worker-<pid>.
 */
import { createContainer } from '../src/container.js';
import { loadConfig } from '../src/core/config/config.js';
import { openPostgres } from '../src/core/db/client.js';
import { createLogger } from '../src/core/logger.js';
import { startWorkers } from '../src/workers/index.js';
import { startProfile } from './lib.js';
import { counter, countPool } from './statement-counter.js';

/** What a worker process spent in a measured window. */
export interface WorkerFigures {
  statements: number;
  shapes: Array<[string, number]>;
  /** CPU milliseconds of this process (user and system). */
  cpuMs: number;
}

export type WorkerRequest = { measure: 'start' | 'stop' } | { close: true };

const send = (message: unknown) => process.send?.(message);

async function main(): Promise<void> {
  const config = loadConfig(process.env, 'worker');
  const logger = createLogger(config.logLevel, { destination: '/dev/null' });
  const database = openPostgres(
    config.databaseUrl!,
    config.databasePoolSize,
    config.databasePreparedStatements,
  );
  countPool(database.pool);
  const container = await createContainer(config, { logger, database });
  const knowledgeBaseIds = (process.env.BENCH_KNOWLEDGE_BASES ?? '').split(',').filter(Boolean);
  await container.rag.repositories.rag.warmSearch(knowledgeBaseIds);
  startWorkers(container);

  let cpuAtStart = process.cpuUsage();
  let stopProfile: (() => Promise<void>) | null = null;
  const profileFile = process.env.BENCH_PROFILE ? `${process.env.BENCH_PROFILE}.worker-${process.pid}` : null;
  process.on('message', async (request: WorkerRequest) => {
    if ('close' in request) {
      await container.close();
      process.exit(0);
    }
    if (request.measure === 'start') {
      counter.total = 0;
      counter.shapes.clear();
      counter.on = true;
      cpuAtStart = process.cpuUsage();
      if (profileFile) stopProfile = await startProfile(profileFile);
      send({ started: true });
      return;
    }
    counter.on = false;
    const cpu = process.cpuUsage(cpuAtStart);
    await stopProfile?.();
    const figures: WorkerFigures = {
      statements: counter.total,
      shapes: [...counter.shapes],
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
    send(figures);
  });
  send({ ready: true });
}

main().catch((error: Error) => {
  process.stderr.write(`pipeline worker: ${error.message}\n`);
  process.exit(1);
});
