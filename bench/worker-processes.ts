/**
 * The parent's side of bench/pipeline-worker.ts: forks the worker processes
 * of a distributed run, waits until each is ready, and collects what they
 * spent in the measured window.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { root } from './lib.js';
import type { WorkerFigures, WorkerRequest } from './pipeline-worker.js';

export interface WorkerProcesses {
  /** Starts counting in every process; resolves once each has. */
  start(): Promise<void>;
  /** Stops counting; answers each process's figures. */
  stop(): Promise<WorkerFigures[]>;
  close(): Promise<void>;
}

/** Forks `count` worker processes with `env` (the service's configuration) and waits until all are ready. */
export async function forkWorkers(
  count: number,
  env: Record<string, string>,
  knowledgeBaseIds: string[],
): Promise<WorkerProcesses> {
  const children: ChildProcess[] = [];
  const exited = (child: ChildProcess) => new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const answer = <T>(child: ChildProcess, request: WorkerRequest | null) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`a pipeline worker exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as T);
      });
      if (request) child.send(request);
    });
  for (let i = 0; i < count; i++) {
    children.push(
      fork(path.join(root, 'bench', 'pipeline-worker.ts'), [], {
        cwd: root,
        execArgv: ['--import', 'tsx'],
        env: { ...process.env, ...env, BENCH_KNOWLEDGE_BASES: knowledgeBaseIds.join(',') },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
  }
  const processes: WorkerProcesses = {
    async start() {
      await Promise.all(children.map((child) => answer(child, { measure: 'start' })));
    },
    stop: () => Promise.all(children.map((child) => answer<WorkerFigures>(child, { measure: 'stop' }))),
    async close() {
      await Promise.all(
        children.map((child) => {
          if (child.exitCode !== null) return undefined;
          const done = exited(child);
          child.send({ close: true });
          return done;
        }),
      );
    },
  };
  try {
    await Promise.all(children.map((child) => answer(child, null)));
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  }
  return processes;
}
