import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalEmbedder } from '../../src/core/llm/local-embedder.js';
import { azureOpenAiShapes } from '../fixtures/model-servers/azure-openai.js';
import { llamaCppShapes } from '../fixtures/model-servers/llama-cpp.js';
import { ollamaShapes } from '../fixtures/model-servers/ollama.js';
import { openAiShapes } from '../fixtures/model-servers/openai.js';
import { vllmShapes } from '../fixtures/model-servers/vllm.js';
import { startHttpServer } from '../http-server.js';

/** The OpenAI-compatible servers reproduced shape for shape (test/fixtures/model-servers/). */
export type ModelServerName = 'openai' | 'azure-openai' | 'ollama' | 'vllm' | 'llama-cpp';

export const MODEL_SERVERS: readonly ModelServerName[] = [
  'openai',
  'azure-openai',
  'ollama',
  'vllm',
  'llama-cpp',
];

/** The error statuses every fixture can answer (`model: 'error-<status>'`). */
export const MODEL_SERVER_ERROR_STATUSES = [400, 401, 404, 429, 500] as const;
export type ModelServerErrorStatus = (typeof MODEL_SERVER_ERROR_STATUSES)[number];

/** The answers other than the normal one, named as the request's `model` (or forced with `answerAs`). */
export type ModelServerVariant =
  | 'no-usage'
  | 'partial-usage'
  | 'null-content'
  | `error-${ModelServerErrorStatus}`
  | 'error-429-once';

type Json = Record<string, unknown>;

/** What a fixture knows of the request it answers. */
export interface ShapeContext {
  /** The `model` of the request. */
  model: string;
  /** `chat` or `embeddings`. */
  endpoint: 'chat' | 'embeddings';
  /** 1, 2, … per fixture: ids are made from it so answers differ from one another. */
  sequence: number;
  /** Unix seconds. */
  created: number;
}

/** One error answer of a server: the body and headers it sends, and the text of its message. */
export interface ServerError {
  /** The server's own words, as they appear in the body (what the client must surface). */
  message: string;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The recorded shapes of one server: each builder returns a body as that server sends it.
 * The fixture server picks the variant and the numbers; the shapes file decides the fields.
 */
export interface ModelServerShapes {
  name: ModelServerName;
  /** The path the OpenAI SDK's base URL ends with (`/v1`, `/openai/v1`). */
  basePath: string;
  /** Whether a wrong API key is refused with the 401 (Ollama takes any key). */
  checksApiKey: boolean;
  /** Whether `encoding_format: 'base64'` is answered with base64 strings (else with numbers). */
  base64: boolean;
  /** Where the shapes were taken from (project and document or source file). */
  source: string;
  /** Headers sent with every successful answer, beside `content-type`. */
  headers(context: ShapeContext): Record<string, string>;
  /** The `usage` object of a chat completion as the server fills it. */
  chatUsage(tokens: { prompt: number; completion: number }): Json;
  /**
   * A chat completion. `content` null is the null-content variant; `usage` undefined means the
   * key is left out (usage absent).
   */
  chatCompletion(context: ShapeContext, answer: { content: string | null; usage: Json | undefined }): Json;
  /** An embeddings answer; each `embedding` is already numbers or base64 as the server would send it. */
  embeddings(
    context: ShapeContext,
    data: Array<{ index: number; embedding: number[] | string }>,
    promptTokens: number,
  ): Json;
  /** The answer to an error status. */
  error(status: ModelServerErrorStatus, context: ShapeContext): ServerError;
}

const SHAPES: Record<ModelServerName, ModelServerShapes> = {
  openai: openAiShapes,
  'azure-openai': azureOpenAiShapes,
  ollama: ollamaShapes,
  vllm: vllmShapes,
  'llama-cpp': llamaCppShapes,
};

/** The recorded shapes of `name` (for tests that compare against what the server says). */
export function modelServerShapes(name: ModelServerName): ModelServerShapes {
  return SHAPES[name];
}

/** One request the fixture received, with what it answered. */
export interface ModelServerRequest {
  method: string;
  /** The URL path, base path included (`/openai/v1/chat/completions`). */
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
  response: {
    status: number;
    headers: Record<string, string>;
    body: unknown;
    /** For an error answer, the server's own words in it. */
    message?: string;
  };
}

export interface ModelServerFixtureOptions {
  /** Length of the vectors answered when the request names no `dimensions` (default 1536). */
  dimensions?: number;
}

/** The text of every chat answer: it quotes the last user message, so callers can see it arrived. */
export const modelServerAnswer = (question: string) => `MODEL-SERVER answer to: ${question}`;

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Float32 little-endian, base64: what `encoding_format: 'base64'` asks for. */
export function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => {
    bytes.writeFloatLE(v, i * 4);
  });
  return bytes.toString('base64');
}

/**
 * A real HTTP server on 127.0.0.1 answering `POST <basePath>/chat/completions` and
 * `POST <basePath>/embeddings` with the bodies, headers and error shapes of one
 * OpenAI-compatible server (the shapes are in test/fixtures/model-servers/<name>.ts).
 *
 * The variant answered is chosen by the request's `model`:
 * - any other name: a normal answer (chat: {@link modelServerAnswer} of the last user message,
 *   with the server's usage object; embeddings: the local embedder's vectors);
 * - `no-usage`: the chat completion without its `usage` key;
 * - `partial-usage`: `usage` holds `prompt_tokens` only;
 * - `null-content`: `choices[0].message.content` is null (Azure: filtered, `finish_reason:
 *   "content_filter"`);
 * - `error-400`, `error-401`, `error-404`, `error-429`, `error-500`: that server's answer to
 *   the status (context too long, bad key, unknown model or deployment, rate limit, server
 *   error), on both routes;
 * - `error-429-once`: the 429 for the first request naming it, normal answers after.
 *
 * `answerAs(variant)` forces a variant on every later request whatever its model (for
 * callers with a fixed model name, such as the whole service); `answerAs(null)` goes back to
 * reading the model. The usage and content variants concern chat completions only; the error
 * variants both routes.
 *
 * Servers that check keys (`checksApiKey`) also answer their 401 to any key but the
 * fixture's `apiKey` (Azure takes it as `api-key` or as a bearer token). Embeddings have
 * the request's `dimensions`, else the fixture's (default 1536), as numbers (rounded to
 * float32, as servers compute) or, to `encoding_format: 'base64'` on a server that supports
 * it, as base64 of little-endian float32. Every request is recorded with its answer.
 */
export async function startModelServerFixture(
  name: ModelServerName,
  options: ModelServerFixtureOptions = {},
) {
  const shapes = SHAPES[name];
  const apiKey = `${name}-fixture-key`;
  let defaultDimensions = options.dimensions ?? 1536;
  let forced: ModelServerVariant | null = null;
  const requests: ModelServerRequest[] = [];
  const answeredOnce = new Set<string>();
  let sequence = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Json = {};
    try {
      body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json) : {};
    } catch {
      body = {};
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const record: ModelServerRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      response: { status: 0, headers: {}, body: null },
    };
    requests.push(record);
    const send = (
      status: number,
      answer: unknown,
      headers: Record<string, string> = {},
      message?: string,
    ) => {
      const all = { 'content-type': 'application/json', ...headers };
      record.response = { status, headers: all, body: answer, ...(message === undefined ? {} : { message }) };
      res.writeHead(status, all);
      res.end(JSON.stringify(answer));
    };

    sequence += 1;
    const requested = typeof body.model === 'string' ? body.model : '';
    // The variant read from here on; the model echoed in answers stays the one requested.
    const model: string = forced ?? requested;
    const endpoint = path === `${shapes.basePath}/embeddings` ? 'embeddings' : 'chat';
    const context: ShapeContext = {
      model: requested,
      endpoint,
      sequence,
      created: Math.floor(Date.now() / 1000),
    };
    const fail = (status: ModelServerErrorStatus) => {
      const error = shapes.error(status, context);
      send(status, error.body, error.headers, error.message);
    };

    const known =
      req.method === 'POST' &&
      (path === `${shapes.basePath}/chat/completions` || path === `${shapes.basePath}/embeddings`);
    if (!known) return fail(404);
    if (shapes.checksApiKey && !keyMatches(req, apiKey, name)) return fail(401);
    const status = Number(/^error-(\d{3})$/.exec(model)?.[1]);
    if (isErrorStatus(status)) return fail(status);
    if (model === 'error-429-once' && !answeredOnce.has(`${endpoint}:${model}`)) {
      answeredOnce.add(`${endpoint}:${model}`);
      return fail(429);
    }

    if (endpoint === 'embeddings') {
      const input = body.input;
      const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
      const dimensions = typeof body.dimensions === 'number' ? body.dimensions : defaultDimensions;
      const embedder = createLocalEmbedder(dimensions);
      const asBase64 = shapes.base64 && body.encoding_format === 'base64';
      const data = texts.map((text, index) => {
        const vector = embedder.embedOne(text);
        return { index, embedding: asBase64 ? float32Base64(vector) : vector.map(Math.fround) };
      });
      const promptTokens = texts.reduce((n, text) => n + words(text), 0);
      return send(200, shapes.embeddings(context, data, promptTokens), shapes.headers(context));
    }

    const messages = (Array.isArray(body.messages) ? body.messages : []) as Array<{
      role?: string;
      content?: unknown;
    }>;
    const question = [...messages].reverse().find((m) => m.role === 'user')?.content;
    const text = modelServerAnswer(typeof question === 'string' ? question : '');
    const prompt = messages.reduce((n, m) => n + words(String(m.content ?? '')), 0);
    const usage =
      model === 'no-usage'
        ? undefined
        : model === 'partial-usage'
          ? { prompt_tokens: prompt }
          : shapes.chatUsage({ prompt, completion: words(text) });
    const content = model === 'null-content' ? null : text;
    return send(200, shapes.chatCompletion(context, { content, usage }), shapes.headers(context));
  };

  const server = await startHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  return {
    name,
    shapes,
    /** The key the fixture accepts (servers that check keys refuse any other with their 401). */
    apiKey,
    /** The full base URL the SDK is given, base path included (`http://127.0.0.1:<port>/v1`). */
    baseUrl: `${server.url}${shapes.basePath}`,
    requests,
    /** Whether `encoding_format: 'base64'` is answered in base64 (all five servers do). */
    base64: shapes.base64,
    /** Forces `variant` on every later request whatever its model; null reads the model again. */
    answerAs(variant: ModelServerVariant | `error-${number}` | null) {
      const status = /^error-(\d{3})$/.exec(variant ?? '')?.[1];
      if (status && !isErrorStatus(Number(status))) {
        throw new Error(
          `the fixtures answer the statuses ${MODEL_SERVER_ERROR_STATUSES.join(', ')}, not ${status}`,
        );
      }
      forced = variant as ModelServerVariant | null;
      answeredOnce.clear();
    },
    /** The length of the vectors answered from now on when the request names no `dimensions`. */
    setDimensions(dimensions: number) {
      defaultDimensions = dimensions;
    },
    /**
     * The server's own words in the last answer with `status` (they can name the model or the
     * operation asked for).
     * @throws Error when no request was answered with that status.
     */
    errorMessage(status: number): string {
      const answer = [...requests].reverse().find((r) => r.response.status === status)?.response.message;
      if (answer === undefined) throw new Error(`the ${name} fixture answered no ${status}`);
      return answer;
    },
    /** Forgets the recorded requests and the `error-429-once` answers given, and reads the model again. */
    reset() {
      requests.length = 0;
      answeredOnce.clear();
      forced = null;
    },
    close: () => server.close(),
  };
}

const isErrorStatus = (status: number): status is ModelServerErrorStatus =>
  (MODEL_SERVER_ERROR_STATUSES as readonly number[]).includes(status);

function keyMatches(req: IncomingMessage, apiKey: string, name: ModelServerName): boolean {
  if (req.headers.authorization === `Bearer ${apiKey}`) return true;
  // Azure OpenAI takes the resource key in `api-key` as well (Entra ID tokens come as bearer tokens).
  return name === 'azure-openai' && req.headers['api-key'] === apiKey;
}

export type ModelServerFixture = Awaited<ReturnType<typeof startModelServerFixture>>;
