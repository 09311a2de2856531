import OpenAI from 'openai';

/**
 * What the last probe of the LLM provider found:
 * - `ok`: it answered (any HTTP status below 500 other than 401 and 403;
 *   a 404 from a server without `/models` still proves it is there);
 * - `unauthorized`: it answered 401 or 403, so LLM_API_KEY is refused;
 * - `error`: it answered 5xx;
 * - `unreachable`: no answer (refused, unknown host, timeout).
 * `reason` says why in words fit for an unauthenticated health check: no
 * address, no key, no body of the provider's answer.
 */
export type LlmProbeResult =
  | { state: 'ok' }
  | { state: 'unreachable' | 'unauthorized' | 'error'; reason: string; detail: string };

export interface LlmProbeOptions {
  apiKey: string;
  /** LLM_BASE_URL; null means the SDK's own default address, as the providers use. */
  baseUrl: string | null;
  /** One probe's limit, in milliseconds. Default 2000. */
  timeoutMs?: number;
  /** How long an answer is reused, in milliseconds. Default 30 000. */
  cacheMs?: number;
  /** The clock (milliseconds); tests pass their own. */
  now?: () => number;
}

export const LLM_PROBE_TIMEOUT_MS = 2000;
export const LLM_PROBE_CACHE_MS = 30_000;

/** The address the chat and embedding providers use: LLM_BASE_URL, else the SDK's default. */
function providerBaseUrl(options: LlmProbeOptions): string {
  const base = options.baseUrl ?? new OpenAI({ apiKey: options.apiKey }).baseURL;
  return base.replace(/\/+$/, '');
}

/** The error's code (ECONNREFUSED, ENOTFOUND, …) from fetch's `cause`, when there is one. */
function networkCode(error: unknown): string | null {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : null;
}

/**
 * Probes `GET {base}/models` with the key, at most once per `cacheMs`
 * (concurrent callers share one request), so a load balancer polling
 * /health never turns into load on the provider.
 */
export function createLlmProbe(options: LlmProbeOptions) {
  const url = `${providerBaseUrl(options)}/models`;
  const timeoutMs = options.timeoutMs ?? LLM_PROBE_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? LLM_PROBE_CACHE_MS;
  const now = options.now ?? Date.now;
  let cached: { at: number; result: LlmProbeResult } | null = null;
  let inFlight: Promise<LlmProbeResult> | null = null;

  async function probeOnce(): Promise<LlmProbeResult> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${options.apiKey}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const code = networkCode(error);
      const why = timedOut ? `no answer within ${timeoutMs} ms` : (code ?? 'connection failed');
      return {
        state: 'unreachable',
        reason: `the LLM provider cannot be reached (${why})`,
        detail: `GET ${url}: ${why}`,
      };
    }
    // The body is not needed; release the connection.
    await response.body?.cancel().catch(() => {});
    if (response.status === 401 || response.status === 403) {
      return {
        state: 'unauthorized',
        reason: `the LLM provider refuses LLM_API_KEY (HTTP ${response.status})`,
        detail: `GET ${url}: HTTP ${response.status}`,
      };
    }
    if (response.status >= 500) {
      return {
        state: 'error',
        reason: `the LLM provider answers with errors (HTTP ${response.status})`,
        detail: `GET ${url}: HTTP ${response.status}`,
      };
    }
    return { state: 'ok' };
  }

  return {
    /** The base address probed (without the key), for logs. */
    url,
    /** The cached result while it is fresh, else a new probe. Never throws. */
    async check(): Promise<LlmProbeResult> {
      if (cached && now() - cached.at < cacheMs) return cached.result;
      if (!inFlight) {
        inFlight = probeOnce().then((result) => {
          cached = { at: now(), result };
          inFlight = null;
          return result;
        });
      }
      return inFlight;
    },
  };
}

export type LlmProbe = ReturnType<typeof createLlmProbe>;
