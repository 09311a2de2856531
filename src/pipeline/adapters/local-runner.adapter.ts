import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentCliConfig } from '../../core/config/config.js';
import {
  type AgentAdapter,
  type AgentRunnerConfig,
  AgentRunnerError,
  AgentTimeoutError,
  type GenerateInput,
  type GenerateOutput,
} from './adapter.js';
import { type CliFormat, CliOutputError } from './cli-formats.js';
import { renderPrompt } from './prompt.js';

/** More output than any reply needs; a CLI printing past it is stopped. */
const MAX_STDOUT_BYTES = 8 * 1024 * 1024;
/** The end of stderr kept for the error message. */
const STDERR_TAIL_CHARS = 2000;

const ENV_NAMES: Record<CliFormat['type'], string> = {
  claude_code: 'CLAUDE_CODE',
  codex_cli: 'CODEX_CLI',
  gemini_cli: 'GEMINI_CLI',
};

/**
 * An adapter that runs a command-line agent installed on the worker's
 * machine, once per reply: spawned without a shell, in a fresh empty
 * working directory, with only the allow-listed environment plus the native
 * vendor key under the vendor's variable. The prompt goes on stdin.
 * Past the timeout (the smaller of the input's and AGENT_RUNNER_TIMEOUT_MS)
 * or when the signal aborts, its process group gets SIGTERM, then SIGKILL
 * after AGENT_RUNNER_KILL_GRACE_MS, and the call rejects with
 * AgentTimeoutError once the process is gone.
 */
export function createLocalRunnerAdapter(deps: {
  format: CliFormat;
  cli: AgentCliConfig;
  config: AgentRunnerConfig;
  logger: FastifyBaseLogger;
}): AgentAdapter {
  const { format, cli, config, logger } = deps;
  const key = config.llm.nativeApiKey;
  const env: Record<string, string> = { ...config.agentRunner.childEnv };
  if (key) for (const name of format.keyVariables) env[name] = key;
  const redact = (text: string) => (key ? text.replaceAll(key, '[REDACTED]') : text);

  return {
    type: format.type,
    async generate(input: GenerateInput): Promise<GenerateOutput> {
      const cap = config.agentRunner.timeoutMs;
      const timeoutMs = input.timeoutMs > 0 ? Math.min(input.timeoutMs, cap) : cap;
      if (input.signal.aborted) throw new AgentTimeoutError(format.type, null);
      const prompt = renderPrompt(input);
      const args = format.args(prompt, cli.model, cli.args);
      const cwd = await mkdtemp(path.join(tmpdir(), 'aos-agent-'));
      const started = performance.now();
      logger.debug({ adapter: format.type, command: cli.command, timeoutMs }, 'agent runner: starting');
      try {
        const run = await runProcess({
          command: cli.command,
          args,
          cwd,
          env,
          stdin: format.stdin(prompt),
          timeoutMs,
          killGraceMs: config.agentRunner.killGraceMs,
          signal: input.signal,
        });
        const latencyMs = Math.round(performance.now() - started);
        if (run.outcome === 'timeout') throw new AgentTimeoutError(format.type, timeoutMs);
        if (run.outcome === 'aborted') throw new AgentTimeoutError(format.type, null);
        if (run.outcome === 'spawn_error') {
          throw new AgentRunnerError(
            format.type,
            `command "${cli.command}" could not be started (${run.spawnError}); install it or set AGENT_RUNNER_${ENV_NAMES[format.type]}_COMMAND`,
          );
        }
        if (run.outcome === 'too_much_output') {
          throw new AgentRunnerError(
            format.type,
            `printed more than ${MAX_STDOUT_BYTES} bytes and was stopped`,
          );
        }
        const stderr = redact(run.stderrTail).trim();
        if (run.exitCode !== 0) {
          const how =
            run.exitCode === null ? `was killed by ${run.exitSignal}` : `exited with code ${run.exitCode}`;
          // Some CLIs report the failure in their JSON output rather than on stderr.
          const reported = reportedFailure(format, run.stdout);
          const detail = [reported ? redact(reported) : '', stderr].filter(Boolean).join('; ');
          throw new AgentRunnerError(format.type, `${how}: ${detail || 'nothing printed on stderr'}`);
        }
        let answer: ReturnType<CliFormat['parse']>;
        try {
          answer = format.parse(run.stdout);
        } catch (error) {
          if (!(error instanceof CliOutputError)) throw error;
          throw new AgentRunnerError(
            format.type,
            `unusable output: ${redact(error.message)}${stderr ? ` (stderr: ${stderr})` : ''}`,
            { cause: error },
          );
        }
        logger.debug({ adapter: format.type, latencyMs, usage: answer.usage }, 'agent runner: answered');
        return {
          text: answer.text,
          provider: format.type,
          model: answer.model ?? cli.model ?? format.type,
          usage: answer.usage,
          latencyMs,
        };
      } finally {
        await rm(cwd, { recursive: true, force: true });
      }
    },
  };
}

interface ProcessRun {
  outcome: 'exited' | 'timeout' | 'aborted' | 'spawn_error' | 'too_much_output';
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stdout: string;
  stderrTail: string;
  spawnError?: string;
}

/** Runs one process to its end; never rejects. Stopping it kills its whole process group. */
function runProcess(options: {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
  killGraceMs: number;
  signal: AbortSignal;
}): Promise<ProcessRun> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = '';
    let stopReason: ProcessRun['outcome'] | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let lastResort: NodeJS.Timeout | undefined;
    let settled = false;

    const finish = (run: Omit<ProcessRun, 'stdout' | 'stderrTail'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(killTimer);
      clearTimeout(lastResort);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ ...run, stdout: Buffer.concat(stdout).toString('utf8'), stderrTail });
    };
    const stop = (reason: ProcessRun['outcome']) => {
      if (stopReason !== null || settled) return;
      stopReason = reason;
      killGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => {
        killGroup(child, 'SIGKILL');
        // A process stuck in the kernel may never report its end; do not wait for it forever.
        lastResort = setTimeout(
          () => finish({ outcome: reason, exitCode: null, exitSignal: 'SIGKILL' }),
          options.killGraceMs,
        );
      }, options.killGraceMs);
    };
    const onAbort = () => stop('aborted');
    const deadline = setTimeout(() => stop('timeout'), options.timeoutMs);

    try {
      // detached: the agent leads its own process group, so a stop reaches the tools it started too.
      child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
    } catch (error) {
      finish({ outcome: 'spawn_error', exitCode: null, exitSignal: null, spawnError: errorCode(error) });
      return;
    }
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      // Only a failed start is reported here before 'close'; later errors (a failed kill) end in 'close'.
      if (child.pid === undefined) {
        finish({ outcome: 'spawn_error', exitCode: null, exitSignal: null, spawnError: errorCode(error) });
      }
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES) return stop('too_much_output');
      stdout.push(chunk);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // The agent may exit without reading its input; the broken pipe is not an error of ours.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.stdin);

    child.on('close', (code, signal) => {
      finish({ outcome: stopReason ?? 'exited', exitCode: code, exitSignal: signal });
    });
  });
}

function reportedFailure(format: CliFormat, stdout: string): string | null {
  try {
    format.parse(stdout);
  } catch (error) {
    if (error instanceof CliOutputError && error.reportedFailure) return error.message;
  }
  return null;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone, or the platform has no process groups: signal the process itself.
    child.kill(signal);
  }
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
