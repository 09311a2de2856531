import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createNamespace, createUser } from '../../../test/factories.js';
import { useFakeLlmTestApp } from '../../../test/llm-app.js';
import { securityChecks } from '../../../test/security.js';
import { intentExamples } from '../../core/db/schema/index.js';
import { createLocalEmbedder } from '../../core/llm/local-embedder.js';

// The same endpoints with the OpenAI-compatible provider, served by the local fake LLM server.
const ctx = useFakeLlmTestApp();

securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/intents/classify',
  payload: { namespaceId: '00000000-0000-4000-8000-000000000000', text: 'hello' },
});

const setUp = async () => {
  const caller = await createUser(ctx.container, { role: 'dept_head' });
  const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
  const post = (url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: caller.headers, payload });
  return { caller, namespace, post };
};

describe('intents with the OpenAI-compatible provider', () => {
  it('embeds each new example with one provider call, and none for a repeated phrase', async () => {
    const { namespace, post } = await setUp();
    const body = { namespaceId: namespace.id, intentName: 'password', exampleText: 'I forgot my password' };
    expect((await post('/intents/examples', body)).statusCode).toBe(201);
    const calls = ctx.fake.requestsTo('/v1/embeddings');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ model: 'fake-embed', input: ['I forgot my password'] });
    expect((await post('/intents/examples', body)).statusCode).toBe(200);
    expect(ctx.fake.requestsTo('/v1/embeddings')).toHaveLength(1);
  });

  it('classifies through the provider, and without calling it when the pipeline passes the vector', async () => {
    const { namespace, post } = await setUp();
    await ctx.container.intents.service.storeExamples(namespace.id, [
      { intentName: 'password', exampleText: 'I forgot my password' },
      { intentName: 'password', exampleText: 'Please reset my email password' },
      { intentName: 'vacation', exampleText: 'I want to take a vacation next month' },
    ]);
    ctx.fake.reset();
    const res = await post('/intents/classify', {
      namespaceId: namespace.id,
      text: 'I forgot my email password',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().intent).toBe('password');
    expect(ctx.fake.requestsTo('/v1/embeddings')).toHaveLength(1);
    // INTENT_MODEL_FALLBACK is off by default: the chat model is never asked.
    expect(ctx.fake.requestsTo('/v1/chat/completions')).toHaveLength(0);

    const vector = createLocalEmbedder(ctx.container.config.embeddingDimensions).embedOne(
      'I forgot my password',
    );
    const result = await ctx.container.intents.classifier.classify(namespace.id, 'ignored text', vector);
    expect(result.intent).toBe('password');
    expect(result.confidence).toBeGreaterThan(0.9);
    expect(ctx.fake.requestsTo('/v1/embeddings')).toHaveLength(1);
  });

  it('answers 503 without storing anything when the provider keeps failing', async () => {
    const { namespace, post } = await setUp();
    ctx.fake.failNext(500, 500, 500, 500, 500);
    const res = await post('/intents/examples', {
      namespaceId: namespace.id,
      intentName: 'password',
      exampleText: 'I forgot my password',
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: 'ServiceUnavailableError' });
    expect(res.body).not.toContain(ctx.fake.apiKey);
    expect(
      await ctx.container.db
        .select()
        .from(intentExamples)
        .where(eq(intentExamples.namespaceId, namespace.id)),
    ).toEqual([]);
    expect(await ctx.container.intents.trust.get(namespace.id, 'password')).toBeNull();

    ctx.fake.failNext(500, 500, 500, 500, 500);
    const classify = await post('/intents/classify', { namespaceId: namespace.id, text: 'hello' });
    expect(classify.statusCode).toBe(503);
  });
});
