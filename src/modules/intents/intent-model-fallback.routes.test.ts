import { beforeEach, describe, expect, it } from 'vitest';
import { createNamespace, createUser } from '../../../test/factories.js';
import { useFakeLlmTestApp } from '../../../test/llm-app.js';
import { createLocalEmbedder } from '../../core/llm/local-embedder.js';
import { createIntentClassifier } from './intent-classifier.js';
import { isUncertain, parseChoice } from './intent-model-fallback.js';

// INTENT_MODEL_FALLBACK=true with the OpenAI-compatible provider, served by the local fake LLM server.
let reply = 'unknown';
const ctx = useFakeLlmTestApp({ INTENT_MODEL_FALLBACK: 'true' }, { reply: () => reply });
beforeEach(() => {
  reply = 'unknown';
});

const EXAMPLES = [
  { intentName: 'password', exampleText: 'I forgot my password' },
  { intentName: 'password', exampleText: 'Please reset my email password' },
  { intentName: 'vacation', exampleText: 'I want to take a vacation next month' },
  { intentName: 'vacation', exampleText: 'How many vacation days do I have left?' },
];
/** A message near the examples but no copy of one: the offline answer is uncertain (asserted below). */
const UNCERTAIN = 'my vacation request and my password';

const setUp = async () => {
  const caller = await createUser(ctx.container, { role: 'dept_head' });
  const namespace = await createNamespace(ctx.container, { departmentId: caller.user.departmentId });
  await ctx.container.intents.service.storeExamples(namespace.id, EXAMPLES);
  // The same examples without the model: what the service answers offline.
  const offline = createIntentClassifier({
    examples: ctx.container.intents.repositories.examples,
    embeddings: ctx.container.llm.embeddings,
  });
  const vector = (text: string) =>
    createLocalEmbedder(ctx.container.config.embeddingDimensions).embedOne(text);
  ctx.fake.reset();
  const classify = (text: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/intents/classify',
      headers: caller.headers,
      payload: { namespaceId: namespace.id, text },
    });
  return { namespace, offline, vector, classify };
};

const chatCalls = () => ctx.fake.requestsTo('/v1/chat/completions');

describe('INTENT_MODEL_FALLBACK with a configured model', () => {
  it('asks the model once about an uncertain message, with the intents and their examples, and answers its choice', async () => {
    const { namespace, offline, vector, classify } = await setUp();
    const before = await offline.classify(namespace.id, UNCERTAIN, vector(UNCERTAIN));
    const ranked = before.intent === 'unknown' ? before.alternatives : [before, ...before.alternatives];
    expect(isUncertain(ranked[0]!.confidence, ranked[1]?.confidence ?? 0)).toBe(true);
    const other = before.intent === 'password' ? 'vacation' : 'password';

    reply = other;
    const res = await classify(UNCERTAIN);
    expect(res.statusCode).toBe(200);
    expect(res.json().intent).toBe(other);
    expect(res.json().confidence).toBeGreaterThanOrEqual(0.5);
    expect(res.json().alternatives.map((a: { intent: string }) => a.intent)).not.toContain(other);
    const calls = chatCalls();
    expect(calls).toHaveLength(1);
    const prompt = JSON.stringify(calls[0]!.body);
    for (const example of EXAMPLES) expect(prompt).toContain(example.exampleText);
    expect(prompt).toContain(UNCERTAIN);
  });

  it('answers unknown when the model says so, below the 0.5 line', async () => {
    const { classify } = await setUp();
    reply = 'unknown';
    const body = (await classify(UNCERTAIN)).json();
    expect(body).toMatchObject({ intent: 'unknown' });
    expect(body.confidence).toBeLessThan(0.5);
    expect(chatCalls()).toHaveLength(1);
  });

  it('keeps the offline answer when the reply names no offered intent', async () => {
    const { namespace, offline, vector, classify } = await setUp();
    const before = await offline.classify(namespace.id, UNCERTAIN, vector(UNCERTAIN));
    for (const text of ['I think it is vacation', 'salary', 'password\nvacation', '']) {
      ctx.fake.reset();
      reply = text;
      expect((await classify(UNCERTAIN)).json()).toEqual(before);
      expect(chatCalls()).toHaveLength(1);
    }
  });

  it('keeps the offline answer when the model fails', async () => {
    const { namespace, offline, vector } = await setUp();
    const before = await offline.classify(namespace.id, UNCERTAIN, vector(UNCERTAIN));
    // The pipeline passes the vector: the failures all land on the chat request (and its retries).
    ctx.fake.failNext(500, 500, 500, 500, 500, 500);
    reply = 'vacation';
    const result = await ctx.container.intents.classifier.classify(
      namespace.id,
      UNCERTAIN,
      vector(UNCERTAIN),
    );
    expect(result).toEqual(before);
    expect(chatCalls().length).toBeGreaterThanOrEqual(1);
    expect(ctx.fake.requestsTo('/v1/embeddings')).toHaveLength(0);
  });

  it('does not ask about a sure match or plainly unrelated text', async () => {
    const { classify } = await setUp();
    reply = 'vacation';
    expect((await classify('I forgot my password')).json()).toMatchObject({
      intent: 'password',
      confidence: 1,
    });
    expect((await classify('What is the weather in Paris tomorrow?')).json().intent).toBe('unknown');
    expect(chatCalls()).toHaveLength(0);
  });
});

describe('parseChoice', () => {
  const choices = [
    { intent: 'vacation', examples: [] },
    { intent: 'Sick_Leave', examples: [] },
  ];
  it('accepts an offered name or unknown, quotes, spaces, a full stop and case aside', () => {
    expect(parseChoice('vacation', choices)).toBe('vacation');
    expect(parseChoice(' "vacation". ', choices)).toBe('vacation');
    expect(parseChoice('`sick_leave`', choices)).toBe('Sick_Leave');
    expect(parseChoice('Unknown', choices)).toBe('unknown');
  });
  it('refuses anything else', () => {
    expect(parseChoice('vacation or sick_leave', choices)).toBeNull();
    expect(parseChoice('payroll', choices)).toBeNull();
    expect(parseChoice('vacation\nbecause', choices)).toBeNull();
    expect(parseChoice('', choices)).toBeNull();
  });
});
