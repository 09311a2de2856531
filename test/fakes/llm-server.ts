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
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI protocol for
 * `POST /v1/embeddings` and `POST /v1/chat/completions`. Embeddings come from
 * the local lexical embedder, so retrieval behaves as it does offline.
 * Failures can be queued (`failNext(429, 500)`): each queued status answers
 * one request (of any route) before normal service resumes.
 */
export async function startFakeLlmServer(options: FakeLlmOptions = {}) {
  let dimensions = options.dimensions ?? 1536;
  let embedder = createLocalEmbedder(dimensions);
  const failures: number[] = [];
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
      // retry-after-ms keeps the client's backoff short in tests; the SDK honours it.
      return send(
        res,
        failure,
        { error: { message: `fake failure ${failure}`, type: 'server_error' } },
        { 'retry-after-ms': '20' },
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
    /** Answers the next requests with these HTTP statuses, one each, then serves normally again. */
    failNext(...statuses: number[]) {
      failures.push(...statuses);
    },
    setDimensions(next: number) {
      dimensions = next;
      embedder = createLocalEmbedder(dimensions);
    },
    reset() {
      requests.length = 0;
      failures.length = 0;
    },
    close: server.close,
  };
  return fake;
}

export type FakeLlmServer = Awaited<ReturnType<typeof startFakeLlmServer>>;
