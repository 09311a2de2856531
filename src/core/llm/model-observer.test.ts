import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';
import { LlmProviderError } from './llm.js';
import { createOpenAiChat, createOpenAiEmbeddings, type ModelCallObserver } from './openai-compatible.js';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer({ dimensions: 16 });
});
afterAll(() => fake?.close());
beforeEach(() => fake.reset());

/** An observer that keeps what it is told, in order. */
function recorder() {
  const calls: Array<{ model: string; kind: string; outcome: string; seconds: number }> = [];
  const tokens: Array<{ model: string; direction: string; count: number }> = [];
  const observer: ModelCallObserver = {
    call: (model, kind, outcome, seconds) => calls.push({ model, kind, outcome, seconds }),
    tokens: (model, direction, count) => tokens.push({ model, direction, count }),
  };
  return { observer, calls, tokens };
}

describe('the model call observer', () => {
  it('is told the latency and the tokens of a chat call and of each embedding batch', async () => {
    const { observer, calls, tokens } = recorder();
    const connection = { apiKey: fake.apiKey, baseUrl: fake.baseUrl, observer };
    await createOpenAiChat({ ...connection, model: 'chat-test' }).complete({
      messages: [{ role: 'user', content: 'How many vacation days?' }],
    });
    await createOpenAiEmbeddings({ ...connection, model: 'embed-test', dimensions: 16 }).embed([
      'one',
      'two',
    ]);

    expect(calls.map(({ seconds, ...rest }) => rest)).toEqual([
      { model: 'chat-test', kind: 'chat', outcome: 'ok' },
      { model: 'embed-test', kind: 'embedding', outcome: 'ok' },
    ]);
    expect(calls.every((c) => c.seconds >= 0)).toBe(true);
    expect(tokens.filter((t) => t.model === 'chat-test').map((t) => t.direction)).toEqual([
      'input',
      'output',
    ]);
    expect(tokens.find((t) => t.model === 'chat-test' && t.direction === 'input')?.count).toBeGreaterThan(0);
    expect(tokens.filter((t) => t.model === 'embed-test')).toEqual([
      { model: 'embed-test', direction: 'input', count: 2 },
    ]);
  });

  it('is told of a call that failed for good as an error, with no tokens', async () => {
    const { observer, calls, tokens } = recorder();
    fake.failNext(400);
    const chat = createOpenAiChat({
      apiKey: fake.apiKey,
      baseUrl: fake.baseUrl,
      observer,
      model: 'chat-test',
    });
    await expect(chat.complete({ messages: [{ role: 'user', content: 'hello' }] })).rejects.toBeInstanceOf(
      LlmProviderError,
    );
    expect(calls.map((c) => c.outcome)).toEqual(['error']);
    expect(tokens).toEqual([]);
  });
});
