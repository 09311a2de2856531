import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import PQueue from 'p-queue';
import type { TaskOutcome } from './isolated-task.js';

/** How an isolated call ended when it did not answer a value. */
export type IsolatedFailure =
  /** The task threw (or rejected); `causeName` is the thrown error's name. */
  | 'threw'
  /** The process ended on an error nothing in it handled, or was killed by a signal (a native crash). */
  | 'crashed'
  /** The process reached its heap ceiling. */
  | 'out-of-memory'
  /** The call ran past its time limit and the process was killed. */
  | 'timeout'
  /** The process exited (process.exit, nothing left to run) before answering. */
  | 'exited';

/** An isolated call that failed; the calling process and every other call are untouched. */
export class IsolatedTaskError extends Error {
  constructor(
    message: string,
    readonly failure: IsolatedFailure,
    /** The name of the error the task threw (`failure` 'threw'), e.g. a module's own error class. */
    readonly causeName: string | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface IsolatedRunnerOptions {
  /** The entry module (a file calling `serveIsolatedTask`), .js when built, .ts from sources. */
  entry: URL;
  /** Heap ceiling of each process (--max-old-space-size). */
  memoryMb: number;
  /** Longest one call may run before its process is killed. */
  timeoutMs: number;
  /** Calls running at once; later ones wait their turn (default: half the cores, at least 1). */
  concurrency?: number;
}

/**
 * A TypeScript entry needs tsx in the child (vitest and `npm run dev` run the
 * sources): this bootstrap registers it, then imports the entry. A built
 * entry (.js) is started directly, and tsx is never loaded.
 */
const TS_BOOTSTRAP = fileURLToPath(new URL('./ts-entry.mjs', import.meta.url));
/** The end of a child's stderr kept to tell a heap exhaustion from other deaths. */
const STDERR_TAIL = 4096;

/**
 * Runs a task in a fresh child process per call: a heap ceiling, a time
 * limit, and crash isolation. A task that throws, an error nothing handles,
 * a heap exhausted, a native crash (SIGSEGV in an image decoder), an exit or
 * a call that runs too long fails only its own call with an
 * {@link IsolatedTaskError}; the calling process never notices. A process
 * rather than a worker thread, because native code that crashes takes its
 * whole process down; one per call, so no state of one file survives into
 * the next.
 */
export function createIsolatedRunner<Input, Output>(options: IsolatedRunnerOptions) {
  const { entry, memoryMb, timeoutMs } = options;
  const queue = new PQueue({
    concurrency: options.concurrency ?? Math.max(1, Math.floor(availableParallelism() / 2)),
  });
  const entryPath = fileURLToPath(entry);
  const fromSources = entryPath.endsWith('.ts');

  function start(): ChildProcess {
    return fork(fromSources ? TS_BOOTSTRAP : entryPath, fromSources ? [entry.href] : [], {
      // Only the heap ceiling: the parent's own flags (inspector, loaders of a test runner) stay out.
      execArgv: [`--max-old-space-size=${memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
  }

  function runOnce(input: Input): Promise<Output> {
    return new Promise<Output>((resolve, reject) => {
      const child = start();
      let stderr = '';
      let settled = false;
      const finish = (outcome: { value: Output } | { error: IsolatedTaskError }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Whatever the task left running goes with its process.
        child.kill('SIGKILL');
        if ('value' in outcome) resolve(outcome.value);
        else reject(outcome.error);
      };
      const timer = setTimeout(
        () =>
          finish({ error: new IsolatedTaskError(`the decoder took longer than ${timeoutMs} ms`, 'timeout') }),
        timeoutMs,
      );
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL);
      });
      child.on('message', (message: TaskOutcome<Output>) => {
        if (message.ok) finish({ value: message.value });
        else if (message.crashed)
          finish({
            error: new IsolatedTaskError(`the decoder crashed: ${message.error.message}`, 'crashed'),
          });
        else finish({ error: new IsolatedTaskError(message.error.message, 'threw', message.error.name) });
      });
      child.on('error', (error) =>
        finish({ error: new IsolatedTaskError(`the decoder could not start: ${error.message}`, 'crashed') }),
      );
      // 'close', not 'exit': stderr is read to its end first, so a heap exhaustion is recognised.
      child.on('close', (code, signal) => {
        if (/heap out of memory|Reached heap limit/i.test(stderr)) {
          finish({
            error: new IsolatedTaskError(
              `the decoder ended at its memory limit of ${memoryMb} MB (heap out of memory)`,
              'out-of-memory',
            ),
          });
        } else if (signal) {
          finish({ error: new IsolatedTaskError(`the decoder crashed (killed by ${signal})`, 'crashed') });
        } else {
          finish({
            error: new IsolatedTaskError(`the decoder exited with code ${code} before answering`, 'exited'),
          });
        }
      });
      child.send(input as object, (error) => {
        if (error)
          finish({ error: new IsolatedTaskError(`the decoder could not be given its input`, 'crashed') });
      });
    });
  }

  return {
    /**
     * Runs the entry's task on `input` in its own process; `input` and the
     * answer cross by structured clone (Buffers and typed arrays included).
     * @throws IsolatedTaskError when the task throws, crashes, runs out of memory, exits or times out.
     */
    run(input: Input): Promise<Output> {
      return queue.add(() => runOnce(input));
    },
  };
}

export type IsolatedRunner<Input, Output> = ReturnType<typeof createIsolatedRunner<Input, Output>>;
