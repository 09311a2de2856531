import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A log line the service wrote (its JSON logger's fields). */
export type LogLine = Record<string, unknown> & { msg?: string; level?: number };

/**
 * One process of the service as production runs it (`src/main.ts <mode>`
 * through tsx, or dist/main.js: {@link ServiceEntry}), its JSON log lines
 * kept for the caller to read. `kill()` is a kill -9; `start()` again is
 * the supervisor starting it anew with the same environment.
 */
export interface ServiceProcess {
  readonly mode: 'all' | 'api' | 'worker';
  /** Every log line of every life of this process, in order. */
  readonly logs: LogLine[];
  /** Starts the process and resolves once it serves (`all`, `api`: listening; `worker`: workers started). */
  start(): Promise<void>;
  /** SIGKILL, as a crash or the OOM killer would; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit (a clean stop). */
  stop(): Promise<void>;
  /** kill -9, then started again at once, as a supervisor restarts a crashed process. */
  crashAndRestart(): Promise<void>;
  readonly running: boolean;
}

/** How long a start may take (tsx compiles the sources at the first start of a run). */
const START_TIMEOUT_MS = 60_000;

/**
 * `source` runs src/main.ts through tsx (tests: nothing needs building);
 * `built` runs dist/main.js as `npm start` does (the bench: start-up as in production).
 */
export type ServiceEntry = 'source' | 'built';

let builtMatches: boolean | undefined;

/**
 * `built` when dist/ is the build of the sources as they are now (the
 * fingerprint of scripts/build-if-stale.mjs, as CI checks it after `npm ci`),
 * else `source`: the same code either way, and a start from dist/ skips
 * tsx's compile (about 3 s of each start). Asked once per worker process.
 */
export function currentEntry(): ServiceEntry {
  builtMatches ??=
    spawnSync(process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs'), '--check'], {
      cwd: root,
      stdio: 'ignore',
    }).status === 0;
  return builtMatches ? 'built' : 'source';
}

/** The arguments of `node` that run the service's entry point the `entry` way (a command or mode follows). */
export function entryArgs(entry: ServiceEntry = currentEntry()): string[] {
  return entry === 'built'
    ? [path.join(root, 'dist', 'main.js')]
    : ['--import', 'tsx', path.join(root, 'src', 'main.ts')];
}

export function serviceProcess(
  mode: ServiceProcess['mode'],
  env: Record<string, string>,
  entry: ServiceEntry = currentEntry(),
): ServiceProcess {
  const logs: LogLine[] = [];
  let child: ChildProcess | null = null;

  const exited = (proc: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) resolve();
      else proc.once('exit', () => resolve());
    });

  return {
    mode,
    logs,
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    start() {
      const args = [...entryArgs(entry), mode];
      const proc = spawn(process.execPath, args, {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      const stderr: string[] = [];
      proc.stderr?.on('data', (data: Buffer) => stderr.push(data.toString()));
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${mode} did not start within ${START_TIMEOUT_MS} ms`)),
          START_TIMEOUT_MS,
        );
        const ready = mode === 'worker' ? 'worker running' : 'listening on ';
        createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on('line', (text) => {
          let line: LogLine;
          try {
            line = JSON.parse(text) as LogLine;
          } catch {
            line = { msg: text };
          }
          logs.push(line);
          if (typeof line.msg === 'string' && line.msg.startsWith(ready)) {
            clearTimeout(timer);
            resolve();
          }
        });
        proc.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(
            new Error(`${mode} exited (${code ?? signal}) before it served: ${stderr.join('').slice(-2000)}`),
          );
        });
      });
    },
    async kill() {
      if (!child) return;
      const proc = child;
      proc.kill('SIGKILL');
      await exited(proc);
    },
    async crashAndRestart() {
      await this.kill();
      await this.start();
    },
    async stop() {
      if (!child) return;
      const proc = child;
      proc.kill('SIGTERM');
      await exited(proc);
    },
  };
}
