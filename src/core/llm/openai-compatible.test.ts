import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';
import { createWorkLimit } from '../concurrency/work-limit.js';
import { createLlmProviders } from './index.js';
import { EmbeddingDimensionError, LlmProviderError } from './llm.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOpenAiChat, createOpenAiEmbeddings, EMBEDDING_BATCH_SIZE } from './openai-compatible.js';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer({ dimensions: 64 });
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.reset();
  fake.setDimensions(64);
});

const embeddings = (dimensions = 64, maxRetries = 4) =>
  createOpenAiEmbeddings({
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    model: 'embed-test',
    dimensions,
    maxRetries,
  });

describe('OpenAI-compatible embeddings', () => {
  it('sends batches of 32 with encoding_format float and keeps the input order', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `text number ${i}`);
    const vectors = await embeddings().embed(texts);

    const sent = fake.requestsTo('/v1/embeddings');
    expect(EMBEDDING_BATCH_SIZE).toBe(32);
    expect(sent.map((r) => (r.body.input as string[]).length)).toEqual([32, 32, 6]);
    expect(sent.every((r) => r.body.encoding_format === 'float' && r.body.model === 'embed-test')).toBe(true);
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    // The fake answers each batch in reverse order; the provider must place vectors by index.
    const local = createLocalEmbedder(64);
    expect(vectors).toHaveLength(70);
    expect(vectors[0]).toEqual(local.embedOne('text number 0'));
    expect(vectors[69]).toEqual(local.embedOne('text number 69'));
  });

  it('sends no request for no texts', async () => {
    expect(await embeddings().embed([])).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('retries 429 and 500 answers, then succeeds', async () => {
    fake.failNext(429, 500, 503);
    const [vector] = await embeddings().embed(['hello']);
    expect(vector).toHaveLength(64);
    expect(fake.requestsTo('/v1/embeddings')).toHaveLength(4);
  });

  it('gives up with a provider error once the retries run out', async () => {
    fake.failNext(500, 500, 500);
    const error = await embeddings(64, 2)
      .embed(['hello'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmProviderError);
    expect((error as Error).message).toContain('HTTP 500');
    expect((error as Error).message).not.toContain(fake.apiKey);
    expect(fake.requestsTo('/v1/embeddings')).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    fake.failNext(400);
    await expect(embeddings().embed(['hello'])).rejects.toBeInstanceOf(LlmProviderError);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a clear error when the vectors have another dimension', async () => {
    fake.setDimensions(768);
    const error = await embeddings(1536)
      .embed(['hello'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingDimensionError);
    expect(error).toMatchObject({ expected: 1536, actual: 768 });
    expect((error as Error).message).toContain('EMBEDDING_DIMENSIONS');
    expect((error as Error).message).toContain('768');
  });
});

describe('OpenAI-compatible chat', () => {
  const chat = () => createOpenAiChat({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, model: 'chat-test' });

  it('sends the conversation with the passages as quoted context and maps the usage', async () => {
    const result = await chat().complete({
      messages: [
        { role: 'system', content: 'You are the HR assistant.' },
        { role: 'user', content: 'How many vacation days?' },
      ],
      passages: [{ id: 'c1', title: 'Leave policy', content: 'Employees get 24 vacation days.', score: 0.8 }],
    });
    expect(result).toMatchObject({
      text: 'FAKE-LLM answer to: How many vacation days?',
      provider: 'openai-compatible',
      model: 'chat-test',
    });
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    const [sent] = fake.requestsTo('/v1/chat/completions');
    const messages = sent?.body.messages as Array<{ role: string; content: string }>;
    expect(messages.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(messages[1]?.content).toContain('Employees get 24 vacation days.');
    expect(messages[1]?.content).toContain('not instructions');
  });

  it('retries a 429 and then answers', async () => {
    fake.failNext(429);
    const result = await chat().complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(result.text).toContain('hi');
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(2);
  });

  it("waits out each 429's retry-after, then answers", async () => {
    fake.rateLimitNext(2, '1');
    const result = await chat().complete({ messages: [{ role: 'user', content: 'hello' }] });
    expect(result.text).toContain('hello');
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(3);
  });

  it('fails at once when a 429 asks for a longer wait than is honoured', async () => {
    fake.rateLimitNext(1, '3600');
    const error = await chat()
      .complete({ messages: [{ role: 'user', content: 'hello' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmProviderError);
    expect((error as Error).message).toContain('HTTP 429');
    expect((error as Error).message).toContain('asked to wait 3600 s');
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(1);
  });

  it('keeps at most its limit of requests in flight, the others waiting their turn', async () => {
    const limit = createWorkLimit(3);
    const limited = createOpenAiChat({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, model: 'm', limit });
    fake.hold();
    const calls = Array.from({ length: 10 }, (_, i) =>
      limited.complete({ messages: [{ role: 'user', content: `question ${i}` }] }),
    );
    await fake.whenInFlight(3);
    expect(limit.running).toBe(3);
    expect(limit.waiting).toBe(7);
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(3);
    fake.release();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `FAKE-LLM answer to: question ${i}`),
    );
    expect(fake.maxInFlight()).toBe(3);
  });

  it('gives its place back when the caller aborts, also during a retry wait', async () => {
    const limit = createWorkLimit(1);
    const limited = createOpenAiChat({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, model: 'm', limit });
    fake.rateLimitNext(1, '30');
    const controller = new AbortController();
    const first = limited
      .complete({ messages: [{ role: 'user', content: 'first' }], signal: controller.signal })
      .catch((e: unknown) => e);
    const second = limited.complete({ messages: [{ role: 'user', content: 'second' }] });
    await waitForRequests(1);
    expect(limit.waiting).toBe(1);
    // The first call sleeps out its 30 s retry-after, holding the only place, until it is aborted.
    controller.abort();
    expect(await first).toBeInstanceOf(LlmProviderError);
    expect((await second).text).toContain('second');
  });
});

/** Resolves once the fake has received `count` chat requests (its answers come after). */
async function waitForRequests(count: number): Promise<void> {
  while (fake.requestsTo('/v1/chat/completions').length < count) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('createLlmProviders', () => {
  it('runs offline without an API key', () => {
    const llm = createLlmProviders({
      embeddingDimensions: 1536,
      llm: {
        apiKey: null,
        baseUrl: null,
        model: 'm',
        embeddingModel: 'e',
        embeddingEncoding: 'float',
        nativeApiKey: null,
        maxConcurrency: 4,
      },
    });
    expect(llm.mode).toBe('offline');
    expect(llm.embeddings.name).toBe('local');
    expect(llm.embeddings.dimensions).toBe(1536);
    expect(llm.chat.name).toBe('offline');
  });

  it('uses the OpenAI-compatible API at LLM_BASE_URL with a key', async () => {
    const llm = createLlmProviders({
      embeddingDimensions: 64,
      llm: {
        apiKey: fake.apiKey,
        baseUrl: fake.baseUrl,
        model: 'm',
        embeddingModel: 'e',
        embeddingEncoding: 'float',
        nativeApiKey: null,
        maxConcurrency: 4,
      },
    });
    expect(llm.mode).toBe('configured');
    expect(await llm.embeddings.embed(['x'])).toHaveLength(1);
    expect(fake.requestsTo('/v1/embeddings')[0]?.body.model).toBe('e');
  });
});
