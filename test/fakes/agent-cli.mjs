#!/usr/bin/env node
/**
 * A stand-in for the command-line agents the local runners spawn. It tells
 * which CLI it is asked to be from the arguments the runner passes, and
 * refuses (exit 2, like the real ones) arguments that CLI would not accept:
 *
 *   claude -p --output-format json [--model M] …          prompt on stdin
 *   codex exec --json --skip-git-repo-check --sandbox read-only [--model M] … -
 *   gemini -p <instruction> --output-format json [--model M] …   conversation on stdin
 *
 * Extra arguments (what AGENT_RUNNER_*_ARGS adds) choose the behaviour:
 *   --fake ok | fail | garbage | error-result | hang | hang-ignore-term
 *   --fake-pid-file <path>   write "<pid> <grandchild pid>" there (hang modes start a grandchild)
 *
 * The reply text reports what the fake received: the prompt's size, its last
 * user message, the vendor key and the environment variable names.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const optionValue = (flag) => {
  const at = argv.indexOf(flag);
  return at === -1 ? undefined : argv[at + 1];
};
const mode = optionValue('--fake') ?? 'ok';
const pidFile = optionValue('--fake-pid-file');
const model = optionValue('--model');

function usage(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

let flavor;
if (argv[0] === 'exec') {
  flavor = 'codex';
  if (!argv.includes('--json')) usage('codex exec without --json');
  if (argv.at(-1) !== '-') usage('codex exec: the prompt must be "-" (stdin) as the last argument');
} else if (argv[0] === '-p') {
  flavor = argv[1] && !argv[1].startsWith('-') ? 'gemini' : 'claude';
  if (optionValue('--output-format') !== 'json') usage('--output-format json is required');
} else {
  usage(`unexpected arguments: ${argv.join(' ')}`);
}

const keyVariable = { claude: 'ANTHROPIC_API_KEY', codex: 'CODEX_API_KEY', gemini: 'GEMINI_API_KEY' }[flavor];

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function hang() {
  // A grandchild, as a real agent's tool would be: stopping the agent must stop it too.
  const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  if (mode === 'hang-ignore-term') process.on('SIGTERM', () => {});
  if (pidFile) writeFileSync(pidFile, `${process.pid} ${grandchild.pid}`);
  setInterval(() => {}, 1000);
}

if (mode === 'hang' || mode === 'hang-ignore-term') {
  hang();
} else {
  let prompt = await readStdin();
  if (flavor === 'gemini') prompt = `${prompt}\n\n${argv[1]}`;
  const lastUser = prompt.split('## User\n').at(-1)?.split('\n')[0] ?? '';
  const key = process.env[keyVariable] ?? 'none';
  const text =
    `FAKE ${flavor} reply to "${lastUser}" (${Buffer.byteLength(prompt)} bytes); key=${key}; ` +
    `env=${Object.keys(process.env).sort().join(',')}`;
  const out = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

  if (mode === 'fail') {
    process.stderr.write(`Error: the API rejected key ${key}\n`);
    process.exit(1);
  } else if (mode === 'garbage') {
    process.stdout.write('Here is your answer, not in JSON at all.\n');
  } else if (flavor === 'claude') {
    const failed = mode === 'error-result';
    out({
      type: 'result',
      subtype: failed ? 'error_during_execution' : 'success',
      is_error: failed,
      duration_ms: 12,
      num_turns: 1,
      result: failed ? 'Credit balance is too low' : text,
      session_id: 'fake-session',
      total_cost_usd: 0.01,
      usage: {
        input_tokens: 100,
        cache_creation_input_tokens: 20,
        cache_read_input_tokens: 30,
        output_tokens: 40,
      },
      modelUsage: {
        'claude-3-5-haiku-20241022': { inputTokens: 5, outputTokens: 2 },
        [model ?? 'claude-sonnet-4-5-20250929']: { inputTokens: 95, outputTokens: 38 },
      },
    });
  } else if (flavor === 'codex') {
    out({ type: 'thread.started', thread_id: 'fake-thread' });
    out({ type: 'turn.started' });
    if (mode === 'error-result') {
      out({ type: 'turn.failed', error: { message: 'stream disconnected before completion' } });
      process.exit(1);
    }
    out({ type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: 'Thinking about it' } });
    out({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'A draft' } });
    out({
      type: 'turn.completed',
      usage: { input_tokens: 1200, cached_input_tokens: 200, output_tokens: 345 },
    });
    out({ type: 'turn.started' });
    out({ type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text } });
    out({ type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5 } });
  } else if (mode === 'error-result') {
    out({ error: { type: 'FatalAuthenticationError', message: 'API key not valid', code: 41 } });
    process.exit(41);
  } else {
    const name = model ?? 'gemini-2.5-pro';
    out({
      response: text,
      stats: {
        models: {
          'gemini-2.5-flash-lite': {
            api: { totalRequests: 1, totalErrors: 0, totalLatencyMs: 300 },
            tokens: { prompt: 50, candidates: 5, total: 55, cached: 0, thoughts: 0, tool: 0 },
          },
          [name]: {
            api: { totalRequests: 2, totalErrors: 0, totalLatencyMs: 5053 },
            tokens: { prompt: 2000, candidates: 20, total: 2174, cached: 1500, thoughts: 154, tool: 0 },
          },
        },
        tools: { totalCalls: 0 },
      },
    });
  }
}
