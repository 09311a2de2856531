import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A Redis server of the test's own on a free loopback port, keeping nothing
 * on disk, so that restarting it empty (the fault) never touches the
 * machine's shared Redis. Needs `redis-server` on the PATH.
 */
export interface OwnRedis {
  readonly url: string;
  /** kill -9, then a new empty server on the same port; resolves once it answers. */
  restartEmpty(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP port nobody listens on at this moment, on the loopback address. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;

  async function start(): Promise<void> {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        probe.disconnect();
      }
    }
  }

  async function kill(): Promise<void> {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await gone;
  }

  await start();
  return {
    url,
    async restartEmpty() {
      await kill();
      await start();
    },
    close: kill,
  };
}
