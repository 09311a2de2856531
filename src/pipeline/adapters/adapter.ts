import type { Config } from '../../core/config/config.js';
import type { ChatMessage, ChatUsage, ContextPassage } from '../../core/llm/llm.js';
import type { AgentAdapterType } from '../../modules/namespaces/agent-adapters.js';

export type { AgentAdapterType } from '../../modules/namespaces/agent-adapters.js';

/** What the `generate` step hands an adapter. */
export interface GenerateInput {
  /** System prompt, persona, profile, history and the user message, in order. */
  messages: ChatMessage[];
  /** Retrieved passages; injection-flagged ones already removed. */
  passages: ContextPassage[];
  language: 'en' | 'uk' | 'ru';
  channel: 'web' | 'chanA' | 'chanB' | 'email';
  /** The longest this call may take; a local runner also stops at AGENT_RUNNER_TIMEOUT_MS. */
  timeoutMs: number;
  /** Aborted by the runner on timeout: the call stops and rejects with {@link AgentTimeoutError}. */
  signal: AbortSignal;
}

export interface GenerateOutput {
  text: string;
  /** `openai-compatible` or `offline` for `api`; the adapter identifier for a local runner. */
  provider: string;
  /** The model that answered, as the provider or CLI reports it; what pricing looks up. */
  model: string;
  usage: ChatUsage;
  latencyMs: number;
}

export interface AgentAdapter {
  readonly type: AgentAdapterType;
  /**
   * Generates the reply.
   * @throws AgentTimeoutError past the timeout or when the signal aborts.
   * @throws AgentRunnerError when a local agent cannot start, fails or answers unusable output.
   * @throws LlmProviderError when the API provider fails (`api`).
   */
  generate(input: GenerateInput): Promise<GenerateOutput>;
}

/** The configuration the adapters read: `agentRunner` and the native vendor key in `llm`. */
export type AgentRunnerConfig = Pick<Config, 'agentRunner' | 'llm'>;

/** The adapter ran past its time or was aborted by the runner; the task ends as `timeout`. */
export class AgentTimeoutError extends Error {
  constructor(
    readonly adapter: AgentAdapterType,
    readonly timeoutMs: number | null,
  ) {
    super(
      timeoutMs === null
        ? `Adapter "${adapter}" was stopped by the runner before it answered`
        : `Adapter "${adapter}" did not answer within ${timeoutMs} ms`,
    );
    this.name = new.target.name;
  }
}

/** A local agent could not be started, exited with an error, or printed output that is not its JSON format. */
export class AgentRunnerError extends Error {
  constructor(
    readonly adapter: AgentAdapterType,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Adapter "${adapter}": ${message}`, options);
    this.name = new.target.name;
  }
}

/**
 * Runs `work` until it settles, `timeoutMs` passes or `signal` aborts,
 * whichever comes first; the last two reject with {@link AgentTimeoutError}.
 * `work` receives a signal that aborts in both cases, so it can stop.
 */
export async function withDeadline<T>(
  adapter: AgentAdapterType,
  timeoutMs: number,
  signal: AbortSignal,
  work: (stop: AbortSignal) => Promise<T>,
): Promise<T> {
  if (signal.aborted) throw new AgentTimeoutError(adapter, null);
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stop.abort();
      reject(new AgentTimeoutError(adapter, timeoutMs));
    }, timeoutMs);
    onAbort = () => {
      stop.abort();
      reject(new AgentTimeoutError(adapter, null));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work(stop.signal), deadline]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
