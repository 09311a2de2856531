import type { ChatUsage } from '../../core/llm/llm.js';
import type { LocalAgentAdapterType } from '../../modules/namespaces/agent-adapters.js';
import type { RenderedPrompt } from './prompt.js';
import { promptText } from './prompt.js';

/** What a command-line agent's JSON output yields. */
export interface CliAnswer {
  text: string;
  /** The model the CLI reports; null when its output does not name one. */
  model: string | null;
  usage: ChatUsage;
}

/** The output is not the CLI's JSON format, or it reports a failed run; the message says which. */
export class CliOutputError extends Error {
  /** True when the output is well-formed and reports the run failed (its message is the CLI's). */
  readonly reportedFailure: boolean;
  constructor(message: string, options: { reportedFailure?: boolean } = {}) {
    super(message);
    this.reportedFailure = options.reportedFailure ?? false;
  }
}

const failure = (message: string) =>
  new CliOutputError(`the run failed: ${clip(message)}`, { reportedFailure: true });

/**
 * How one command-line agent is run non-interactively: its arguments, what
 * goes on stdin, where its vendor key goes, how its output is read.
 */
export interface CliFormat {
  readonly type: LocalAgentAdapterType;
  /** Environment variables the native vendor key (LLM_NATIVE_API_KEY) is passed in. */
  readonly keyVariables: readonly string[];
  /** Runner arguments, the model flag when a model is configured, then the configured extra arguments. */
  args(prompt: RenderedPrompt, model: string | null, extra: readonly string[]): string[];
  stdin(prompt: RenderedPrompt): string;
  /** @throws CliOutputError */
  parse(stdout: string): CliAnswer;
}

const modelFlag = (model: string | null) => (model ? ['--model', model] : []);

/**
 * Claude Code print mode: `claude -p --output-format json`, prompt on stdin.
 * Prints one object `{ type: "result", subtype, is_error, result, usage:
 * { input_tokens, output_tokens, cache_*_input_tokens }, modelUsage: { <model>: … } }`.
 */
export const claudeCodeFormat: CliFormat = {
  type: 'claude_code',
  keyVariables: ['ANTHROPIC_API_KEY'],
  args: (_prompt, model, extra) => ['-p', '--output-format', 'json', ...modelFlag(model), ...extra],
  stdin: promptText,
  parse(stdout) {
    const out = parseObject(stdout);
    if (out.is_error === true || (typeof out.subtype === 'string' && out.subtype !== 'success')) {
      const detail =
        typeof out.result === 'string' && out.result ? out.result : String(out.subtype ?? 'error');
      throw failure(detail);
    }
    if (typeof out.result !== 'string') throw new CliOutputError('the JSON output has no "result" text');
    const usage = record(out.usage);
    // Cache reads and writes are input the model processed; counted with the rest of the input.
    const input =
      count(usage.input_tokens) +
      count(usage.cache_creation_input_tokens) +
      count(usage.cache_read_input_tokens);
    const output = count(usage.output_tokens);
    const models = record(out.modelUsage);
    const model = busiest(Object.keys(models), (name) => count(record(models[name]).outputTokens));
    return { text: out.result.trim(), model, usage: tokens(input, output) };
  },
};

/**
 * Codex CLI: `codex exec --json --skip-git-repo-check --sandbox read-only -`,
 * prompt on stdin (`-`). Prints JSONL events: `item.completed` with an
 * `agent_message` item carries the reply text, `turn.completed` the usage,
 * `turn.failed` and `error` a failure. The events name no model.
 */
export const codexCliFormat: CliFormat = {
  type: 'codex_cli',
  keyVariables: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
  args: (_prompt, model, extra) => [
    'exec',
    '--json',
    '--skip-git-repo-check',
    '--sandbox',
    'read-only',
    ...modelFlag(model),
    ...extra,
    '-',
  ],
  stdin: promptText,
  parse(stdout) {
    let text: string | null = null;
    let input = 0;
    let output = 0;
    let events = 0;
    for (const line of stdout.split('\n')) {
      const event = parseLine(line);
      if (!event) continue;
      events += 1;
      if (event.type === 'turn.failed' || event.type === 'error') {
        const message = record(event.error).message ?? event.message;
        throw failure(String(message ?? event.type));
      }
      if (event.type === 'turn.completed') {
        const usage = record(event.usage);
        input += count(usage.input_tokens);
        output += count(usage.output_tokens);
      }
      const item = record(event.item);
      const isMessage = item.type === 'agent_message' || item.item_type === 'agent_message';
      if (event.type === 'item.completed' && isMessage && typeof item.text === 'string') text = item.text;
    }
    if (events === 0) throw new CliOutputError('the output holds no JSON events');
    if (text === null) throw new CliOutputError('the JSON events hold no agent message');
    return { text: text.trim(), model: null, usage: tokens(input, output) };
  },
};

/**
 * Gemini CLI headless mode: `gemini -p <instruction> --output-format json`,
 * the conversation on stdin (the CLI puts stdin before the `-p` text).
 * Prints `{ response, stats: { models: { <model>: { tokens: { prompt,
 * candidates, thoughts, total } } } }, error? }`.
 */
export const geminiCliFormat: CliFormat = {
  type: 'gemini_cli',
  keyVariables: ['GEMINI_API_KEY'],
  args: (prompt, model, extra) => [
    '-p',
    prompt.instruction,
    '--output-format',
    'json',
    ...modelFlag(model),
    ...extra,
  ],
  stdin: (prompt) => `${prompt.conversation}\n`,
  parse(stdout) {
    const out = parseObject(stdout);
    const error = record(out.error);
    if (out.error) throw failure(String(error.message ?? 'error'));
    if (typeof out.response !== 'string') throw new CliOutputError('the JSON output has no "response" text');
    const models = record(record(out.stats).models);
    let input = 0;
    let output = 0;
    for (const name of Object.keys(models)) {
      const t = record(record(models[name]).tokens);
      input += count(t.prompt);
      // Thinking tokens are billed as output.
      output += count(t.candidates) + count(t.thoughts);
    }
    const model = busiest(Object.keys(models), (name) => count(record(record(models[name]).tokens).total));
    return { text: out.response.trim(), model, usage: tokens(input, output) };
  },
};

export const CLI_FORMATS: Record<LocalAgentAdapterType, CliFormat> = {
  claude_code: claudeCodeFormat,
  codex_cli: codexCliFormat,
  gemini_cli: geminiCliFormat,
};

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function tokens(input: number, output: number): ChatUsage {
  return { inputTokens: input, outputTokens: output, totalTokens: input + output, known: true };
}

/** The name with the largest `size`; null for none. */
function busiest(names: string[], size: (name: string) => number): string | null {
  let best: string | null = null;
  for (const name of names) if (best === null || size(name) > size(best)) best = name;
  return best;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

function parseLine(line: string): Json | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    return record(JSON.parse(trimmed));
  } catch {
    return null;
  }
}

/** The one JSON object a CLI prints; a line of noise before or after it (an update notice) is tolerated. */
function parseObject(stdout: string): Json {
  const start = stdout.indexOf('{');
  const end = stdout.lastIndexOf('}');
  if (start === -1 || end < start) throw new CliOutputError('the output is not JSON');
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.slice(start, end + 1));
  } catch {
    throw new CliOutputError('the output is not JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CliOutputError('the output is not a JSON object');
  }
  return parsed as Json;
}
