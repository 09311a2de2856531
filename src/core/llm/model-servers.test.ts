import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MODEL_SERVER_ERROR_STATUSES,
  MODEL_SERVERS,
  type ModelServerFixture,
  modelServerAnswer,
  startModelServerFixture,
} from '../../../test/fakes/model-servers.js';
import { LlmProviderError } from './llm.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOpenAiChat, createOpenAiEmbeddings, type EmbeddingEncoding } from './openai-compatible.js';

const DIMENSIONS = 256;
const TEXTS = ['How many vacation days do I get?', 'Where is the parking garage entrance?'];

type Json = Record<string, unknown>;

/** The one choice's message of a recorded chat answer. */
const messageOf = (body: unknown) =>
  ((body as { choices: Array<{ message: Json }> }).choices[0]?.message ?? {}) as Json;

describe.each(MODEL_SERVERS)('the %s fixture through the OpenAI-compatible providers', (name) => {
  let server: ModelServerFixture;
  beforeAll(async () => {
    server = await startModelServerFixture(name, { dimensions: DIMENSIONS });
  });
  afterAll(() => server?.close());
  beforeEach(() => server.reset());

  const chat = (model: string, options: { maxRetries?: number; apiKey?: string } = {}) =>
    createOpenAiChat({
      apiKey: options.apiKey ?? server.apiKey,
      baseUrl: server.baseUrl,
      model,
      maxRetries: options.maxRetries ?? 0,
    });
  const embeddings = (model: string, encoding: EmbeddingEncoding, maxRetries = 0) =>
    createOpenAiEmbeddings({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      model,
      dimensions: DIMENSIONS,
      encoding,
      maxRetries,
    });
  const ask = (model: string, options?: { maxRetries?: number; apiKey?: string }) =>
    chat(model, options).complete({
      messages: [
        { role: 'system', content: 'You are the HR assistant.' },
        { role: 'user', content: 'How many vacation days do I get?' },
      ],
    });
  const firstRequest = () => {
    const request = server.requests[0];
    if (!request) throw new Error('the fixture recorded no request');
    return request;
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (error: unknown) => error,
    );

  it('answers a chat with the text and the usage the server reported', async () => {
    const result = await ask('chat-model');

    expect(result.text).toBe(modelServerAnswer('How many vacation days do I get?'));
    expect(result.model).toBe('chat-model');
    const request = firstRequest();
    expect(request.path).toBe(`${server.shapes.basePath}/chat/completions`);
    expect(request.response.status).toBe(200);
    const usage = (request.response.body as { usage: Record<string, number> }).usage;
    expect(result.usage).toEqual({
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
      totalTokens: usage.total_tokens,
      known: true,
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBe(result.text.split(/\s+/).length);
    // A reasoning model's thoughts (vLLM and llama.cpp `reasoning_content`, Ollama `reasoning`) stay out of the answer.
    const thoughts =
      messageOf(request.response.body).reasoning_content ?? messageOf(request.response.body).reasoning;
    if (typeof thoughts === 'string') expect(result.text).not.toContain(thoughts);
  });

  it('reports the usage as unknown, with zeros, when the answer has no usage', async () => {
    const result = await ask('no-usage');

    expect(firstRequest().response.body).not.toHaveProperty('usage');
    expect(result.text).toBe(modelServerAnswer('How many vacation days do I get?'));
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, known: false });
  });

  it('takes a partial usage as known, the missing counts as 0 and the total as the sum', async () => {
    const result = await ask('partial-usage');

    const usage = (firstRequest().response.body as { usage: Json }).usage;
    expect(Object.keys(usage)).toEqual(['prompt_tokens']);
    expect(result.usage).toEqual({
      inputTokens: usage.prompt_tokens,
      outputTokens: 0,
      totalTokens: usage.prompt_tokens,
      known: true,
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('fails with a provider error when the message content is null', async () => {
    const error = await failure(ask('null-content'));

    expect(messageOf(firstRequest().response.body).content).toBeNull();
    expect(error).toBeInstanceOf(LlmProviderError);
    expect((error as Error).message).toContain('answered no text');
  });

  it.each(['float', 'base64'] as const)(
    'embeds with encoding_format %s into the vectors sent',
    async (encoding) => {
      const vectors = await embeddings('embed-model', encoding).embed(TEXTS);

      const request = firstRequest();
      expect(request.path).toBe(`${server.shapes.basePath}/embeddings`);
      expect(request.body.encoding_format).toBe(encoding);
      const answered = (request.response.body as { data: Array<{ embedding: unknown }> }).data;
      const asString = encoding === 'base64' && server.shapes.base64;
      expect(answered.every((d) => typeof d.embedding === (asString ? 'string' : 'object'))).toBe(true);
      const local = createLocalEmbedder(DIMENSIONS);
      expect(vectors).toHaveLength(TEXTS.length);
      TEXTS.forEach((text, i) => {
        const expected = local.embedOne(text);
        const vector = vectors[i] ?? [];
        expect(vector).toHaveLength(DIMENSIONS);
        expect(Math.max(...vector.map((v, j) => Math.abs(v - (expected[j] ?? Number.NaN))))).toBeLessThan(
          1e-6,
        );
      });
    },
  );

  describe.each(MODEL_SERVER_ERROR_STATUSES)('HTTP %i', (status) => {
    it("fails the chat with the status and the server's own message", async () => {
      const model = `error-${status}`;
      const error = await failure(ask(model));

      const expected = server.shapes.error(status, {
        model,
        endpoint: 'chat',
        sequence: 1,
        created: 0,
      }).message;
      expect(server.requests.map((r) => r.response.status)).toEqual([status]);
      expect(error).toBeInstanceOf(LlmProviderError);
      expect((error as Error).message).toContain(`HTTP ${status}`);
      expect((error as Error).message).toContain(expected);
      expect((error as Error).message).not.toContain(server.apiKey);
    });

    it("fails the embeddings with the status and the server's own message", async () => {
      const model = `error-${status}`;
      const error = await failure(embeddings(model, 'float').embed(TEXTS));

      const expected = server.shapes.error(status, {
        model,
        endpoint: 'embeddings',
        sequence: 1,
        created: 0,
      }).message;
      expect(error).toBeInstanceOf(LlmProviderError);
      expect((error as Error).message).toContain(`HTTP ${status}`);
      expect((error as Error).message).toContain(expected);
    });
  });

  it('retries a 429 once, after the wait the server asks for, and then answers', async () => {
    const result = await ask('error-429-once', { maxRetries: 1 });

    expect(result.text).toBe(modelServerAnswer('How many vacation days do I get?'));
    expect(server.requests.map((r) => r.response.status)).toEqual([429, 200]);
  });

  it('retries an embeddings 429 once and then answers', async () => {
    const vectors = await embeddings('error-429-once', 'base64', 1).embed(TEXTS);

    expect(vectors).toHaveLength(TEXTS.length);
    expect(server.requests.map((r) => r.response.status)).toEqual([429, 200]);
  });

  it('forces a variant whatever the model asked, and names the words of its errors', async () => {
    server.answerAs('no-usage');
    expect((await ask('chat-model')).usage.known).toBe(false);

    server.answerAs('error-404');
    const error = await failure(embeddings('embedding-model', 'float').embed(TEXTS));
    expect((error as Error).message).toContain(server.errorMessage(404));
    expect(server.errorMessage(404)).toBe(
      server.shapes.error(404, { model: 'embedding-model', endpoint: 'embeddings', sequence: 2, created: 0 })
        .message,
    );

    server.answerAs(null);
    server.setDimensions(DIMENSIONS / 2);
    const [vector] = await createOpenAiEmbeddings({
      apiKey: server.apiKey,
      baseUrl: server.baseUrl,
      model: 'embedding-model',
      dimensions: DIMENSIONS / 2,
      maxRetries: 0,
    }).embed(['one text']);
    server.setDimensions(DIMENSIONS);
    expect(vector).toEqual(
      createLocalEmbedder(DIMENSIONS / 2)
        .embedOne('one text')
        .map(Math.fround),
    );
    expect(server.requests.map((r) => r.response.status)).toEqual([200, 404, 200]);
  });

  it('answers a wrong API key as the server does (401, or any key taken)', async () => {
    const outcome = await ask('chat-model', { apiKey: 'wrong-key' }).then(
      (result) => result.text,
      (error: unknown) => error,
    );

    if (server.shapes.checksApiKey) {
      expect(outcome).toBeInstanceOf(LlmProviderError);
      expect((outcome as Error).message).toContain('HTTP 401');
      expect((outcome as Error).message).not.toContain('wrong-key');
      expect(server.requests.map((r) => r.response.status)).toEqual([401]);
    } else {
      expect(outcome).toBe(modelServerAnswer('How many vacation days do I get?'));
    }
  });
});
