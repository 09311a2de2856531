import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalEmbedder } from '../../src/core/llm/local-embedder.js';
import { startHttpServer } from '../http-server.js';

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeLlmOptions {
  /** Length of the vectors answered (default 1536); set another to provoke a dimension mismatch. */
  dimensions?: number;
  /** The chat reply (default: a fixed text that quotes the last user message). */
  reply?: (request: { messages: Array<{ role: string; content: string }> }) => string;
  /** How long a chat completion takes to answer, in milliseconds (default 0; see `setLatency`). */
  latencyMs?: number;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI protocol for
 * `POST /v1/embeddings` and `POST /v1/chat/completions`. Embeddings come from
 * the local lexical embedder, so retrieval behaves as it does offline.
 * Failures can be queued (`failNext(429, 500)`): each queued status answers
 * one request (of any route) before normal service resumes; `rateLimitNext`
 * answers 429 with the `retry-after` header a provider sends. Chat
 * completions can take a set latency (`setLatency`), be held until
 * `release()` (`hold`), and stream (`stream: true`, server-sent events). The
 * requests in flight are counted (`inFlight`, `maxInFlight`, `whenInFlight`).
 */
export async function startFakeLlmServer(options: FakeLlmOptions = {}) {
  let dimensions = options.dimensions ?? 1536;
  let embedder = createLocalEmbedder(dimensions);
  const failures: Array<{ status: number; headers: Record<string, string> }> = [];
  let latencyMs = options.latencyMs ?? 0;
  let holding = false;
  const held: Array<() => void> = [];
  const flight = { now: 0, max: 0 };
  const flightWatchers: Array<{ count: number; resolve: () => void }> = [];
  const onFlightChange = () => {
    for (const watcher of [...flightWatchers]) {
      if (flight.now < watcher.count) continue;
      flightWatchers.splice(flightWatchers.indexOf(watcher), 1);
      watcher.resolve();
    }
  };
  const requests: RecordedRequest[] = [];
  const reply =
    options.reply ??
    ((request: { messages: Array<{ role: string; content: string }> }) => {
      const last = [...request.messages].reverse().find((m) => m.role === 'user');
      return `FAKE-LLM answer to: ${last?.content ?? ''}`;
    });

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const server = await startHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>)
        : {};
    } catch {
      return send(res, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });

    const failure = failures.shift();
    if (failure !== undefined) {
      const type = failure.status === 429 ? 'rate_limit_error' : 'server_error';
      return send(
        res,
        failure.status,
        { error: { message: `fake failure ${failure.status}`, type } },
        failure.headers,
      );
    }
    if (req.headers.authorization !== `Bearer ${fake.apiKey}`) {
      return send(res, 401, { error: { message: 'invalid api key', type: 'invalid_request_error' } });
    }

    if (req.method === 'POST' && path === '/v1/embeddings') {
      const input = body.input;
      const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
      const vectors = await embedder.embed(texts);
      return send(res, 200, {
        object: 'list',
        model: body.model,
        // Answered in reverse order on purpose: clients must place vectors by `index`.
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const messages = (body.messages ?? []) as Array<{ role: string; content: string }>;
      const text = reply({ messages });
      const promptTokens = messages.reduce((n, m) => n + String(m.content).split(/\s+/).length, 0);
      const completionTokens = text.split(/\s+/).length;
      flight.now++;
      flight.max = Math.max(flight.max, flight.now);
      onFlightChange();
      try {
        if (holding) await new Promise<void>((resolve) => held.push(resolve));
        if (body.stream === true) return await stream(res, body, text, latencyMs);
        if (latencyMs > 0) await delay(latencyMs);
      } finally {
        flight.now--;
      }
      return send(res, 200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      });
    }
    return send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
  });

  const fake = {
    apiKey: 'fake-llm-key',
    /** The value for LLM_BASE_URL. */
    baseUrl: `${server.url}/v1`,
    requests,
    /** Requests to one path (`/v1/embeddings` or `/v1/chat/completions`). */
    requestsTo: (path: string) => requests.filter((r) => r.path === path),
    /**
     * Answers the next requests with these HTTP statuses, one each, then
     * serves normally again; each asks for a 20 ms wait (`retry-after-ms`,
     * which the SDK honours), so the client's backoff stays short in tests.
     */
    failNext(...statuses: number[]) {
      failures.push(...statuses.map((status) => ({ status, headers: { 'retry-after-ms': '20' } })));
    },
    /** Answers the next `count` requests 429 with `retry-after: <retryAfter>` (seconds or an HTTP date), as providers do. */
    rateLimitNext(count: number, retryAfter: string) {
      for (let i = 0; i < count; i++) failures.push({ status: 429, headers: { 'retry-after': retryAfter } });
    },
    /** How long each later chat completion takes to answer. */
    setLatency(ms: number) {
      latencyMs = ms;
    },
    /** Holds every later chat completion, in flight, until `release()`. */
    hold() {
      holding = true;
    },
    /** Answers the held chat completions, and lets later ones through. */
    release() {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
    /** Chat completions in flight now (held, waiting out the latency or streaming). */
    inFlight: () => flight.now,
    /** The most chat completions that were in flight at once since the start or `reset()`. */
    maxInFlight: () => flight.max,
    /** Resolves once `count` chat completions are in flight at once. */
    whenInFlight(count: number): Promise<void> {
      return new Promise((resolve) => {
        flightWatchers.push({ count, resolve });
        onFlightChange();
      });
    },
    setDimensions(next: number) {
      dimensions = next;
      embedder = createLocalEmbedder(dimensions);
    },
    reset() {
      requests.length = 0;
      failures.length = 0;
      latencyMs = options.latencyMs ?? 0;
      flight.max = flight.now;
    },
    close: async () => {
      fake.release();
      await server.close();
    },
  };
  return fake;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A streamed chat completion (`stream: true`): server-sent `chat.completion.chunk`
 * events, one per word, spread over `latencyMs`, then `[DONE]`; with
 * `stream_options.include_usage`, a last chunk carries the usage.
 */
async function stream(res: ServerResponse, body: Record<string, unknown>, text: string, latencyMs: number) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const words = text.split(/(?<=\s)/);
  const id = `chatcmpl-stream-${Date.now()}`;
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null,
    extra: Record<string, unknown> = {},
  ) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    })}\n\n`;
  res.write(chunk({ role: 'assistant', content: '' }, null));
  for (const word of words) {
    if (latencyMs > 0) await delay(latencyMs / words.length);
    res.write(chunk({ content: word }, null));
  }
  res.write(chunk({}, 'stop'));
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) {
    const completionTokens = words.length;
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model: body.model, choices: [], usage: { prompt_tokens: 0, completion_tokens: completionTokens, total_tokens: completionTokens } })}\n\n`,
    );
  }
  res.end('data: [DONE]\n\n');
}

export type FakeLlmServer = Awaited<ReturnType<typeof startFakeLlmServer>>;
