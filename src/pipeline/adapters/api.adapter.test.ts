import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';
import { createExtractiveResponder } from '../../core/llm/extractive-responder.js';
import { LlmProviderError } from '../../core/llm/llm.js';
import { createOpenAiChat } from '../../core/llm/openai-compatible.js';
import { AgentTimeoutError, type GenerateInput } from './adapter.js';
import { createApiAdapter } from './api.adapter.js';

let fake: FakeLlmServer;
// A provider address that accepts requests and never answers them.
let silent: Server;
let silentUrl: string;
const silentRequests: IncomingMessage[] = [];
// Requests whose connection the client closed: the adapter cancelled them.
const silentCancelled = new Set<IncomingMessage>();

beforeAll(async () => {
  fake = await startFakeLlmServer({ dimensions: 64 });
  silent = createServer((req) => {
    silentRequests.push(req);
    req.socket.once('close', () => silentCancelled.add(req));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await fake?.close();
  silent?.closeAllConnections();
  await new Promise((resolve) => silent?.close(resolve));
});
beforeEach(() => fake.reset());

const input = (overrides: Partial<GenerateInput> = {}): GenerateInput => ({
  messages: [
    { role: 'system', content: 'You are the HR assistant.' },
    { role: 'user', content: 'How many vacation days do I get?' },
  ],
  passages: [
    { id: 'p1', title: 'Leave policy', content: 'Every employee gets 24 vacation days a year.', score: 0.9 },
  ],
  language: 'en',
  channel: 'web',
  timeoutMs: 20_000,
  signal: new AbortController().signal,
  ...overrides,
});

const chatAt = (baseUrl: string, apiKey = fake.apiKey) =>
  createOpenAiChat({ apiKey, baseUrl, model: 'gpt-4o-mini', maxRetries: 0 });

async function waitFor(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('api adapter', () => {
  it('answers through the OpenAI-compatible provider with its usage, the passages sent as quoted data', async () => {
    const output = await createApiAdapter({ chat: chatAt(fake.baseUrl) }).generate(input());
    expect(output).toMatchObject({
      text: 'FAKE-LLM answer to: How many vacation days do I get?',
      provider: 'openai-compatible',
      model: 'gpt-4o-mini',
    });
    expect(output.usage.inputTokens).toBeGreaterThan(0);
    expect(output.usage.totalTokens).toBe(output.usage.inputTokens + output.usage.outputTokens);
    const [request] = fake.requestsTo('/v1/chat/completions');
    const sent = request?.body.messages as Array<{ role: string; content: string }>;
    expect(sent.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(sent[1]?.content).toContain('<<<\nEvery employee gets 24 vacation days a year.\n>>>');
  });

  it('answers offline through the extractive responder, from the passages', async () => {
    const output = await createApiAdapter({ chat: createExtractiveResponder() }).generate(input());
    expect(output.provider).toBe('offline');
    expect(output.model).toBe('extractive');
    expect(output.text).toContain('24 vacation days');
  });

  it('passes a provider failure through as LlmProviderError', async () => {
    fake.failNext(500);
    const error = await createApiAdapter({ chat: chatAt(fake.baseUrl) })
      .generate(input())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmProviderError);
  });

  it('rejects with AgentTimeoutError when the provider does not answer in time', async () => {
    const error = await createApiAdapter({ chat: chatAt(silentUrl) })
      .generate(input({ timeoutMs: 300 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentTimeoutError);
    expect(error).toMatchObject({ adapter: 'api', timeoutMs: 300 });
  });

  it('cancels the provider request when the deadline passes', async () => {
    const sentBefore = silentRequests.length;
    const error = await createApiAdapter({ chat: chatAt(silentUrl) })
      .generate(input({ timeoutMs: 300 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentTimeoutError);
    expect(silentRequests.length).toBe(sentBefore + 1);
    const request = silentRequests[sentBefore]!;
    await waitFor(() => silentCancelled.has(request), 'the provider request to be cancelled');
  });

  it('rejects with AgentTimeoutError when the runner aborts, and at once for an aborted signal', async () => {
    const before = silentRequests.length;
    const controller = new AbortController();
    const pending = createApiAdapter({ chat: chatAt(silentUrl) })
      .generate(input({ signal: controller.signal }))
      .catch((e: unknown) => e);
    await waitFor(() => silentRequests.length > before, 'the request to reach the provider');
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AgentTimeoutError', adapter: 'api', timeoutMs: null });

    const count = silentRequests.length;
    const early = await createApiAdapter({ chat: chatAt(silentUrl) })
      .generate(input({ signal: AbortSignal.abort() }))
      .catch((e: unknown) => e);
    expect(early).toBeInstanceOf(AgentTimeoutError);
    expect(silentRequests.length).toBe(count);
  });
});
