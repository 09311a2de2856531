import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../../test/fakes/llm-server.js';
import { type Collector, startCollector } from '../../../test/fakes/otel-collector.js';
import { multipartBody } from '../../../test/files.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { agentTasks } from '../db/schema/index.js';

/**
 * The spans of the real service: a document ingested with synthetic
 * questions and a message run through the inbound service and the agent-task
 * worker, exported to a local fake of a Langfuse-compatible collector.
 */

let fake: FakeLlmServer;
let collector: Collector;
beforeAll(async () => {
  fake = await startFakeLlmServer({
    reply: ({ messages }) =>
      messages[0]?.content.includes('questions that an employee')
        ? 'How many vacation days do I get?\nIs vacation paid?'
        : 'You get twenty four days of paid vacation.',
  });
  collector = await startCollector();
});
afterAll(async () => {
  await collector?.server.close();
  await fake?.close();
});

const llmEnv = () => ({
  LLM_API_KEY: fake.apiKey,
  LLM_BASE_URL: fake.baseUrl,
  LLM_MODEL: 'gpt-4o-mini',
  LLM_EMBEDDING_MODEL: 'fake-embed',
});

/** Ingests a text file into the scene's knowledge base (synthetic questions on), then runs one message. */
async function runScene(ctx: PipelineTestContext) {
  const { container } = ctx;
  const scene = await createPipelineScene(container);
  const knowledgeBaseId = scene.knowledge.knowledgeBase.id;
  await container.knowledge.repositories.bases.update(knowledgeBaseId, {
    syntheticQuestions: { enabled: true, perChunk: 2 },
  });
  const { body, contentType } = multipartBody({
    knowledgeBaseId,
    title: 'Leave rules',
    file: { filename: 'leave.txt', content: Buffer.from('Unused vacation days move to the next year.') },
  });
  const upload = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/knowledge/upload',
    headers: { ...scene.employee.headers, 'content-type': contentType },
    payload: body,
  });
  expect(upload.statusCode).toBe(201);
  const documentId: string = upload.json().id;
  await waitFor('the document to be ready', async () => {
    const row = await container.knowledge.repositories.documents.findById(documentId);
    return row?.status === 'ready';
  });

  const received = await container.pipeline.inbound.receive({
    channel: 'chanA',
    channelUserId: scene.phone,
    text: VACATION_QUESTION,
  });
  const task = await waitFor('the task to finish', async () => {
    const [row] = await container.db.select().from(agentTasks).where(eq(agentTasks.id, received.taskId!));
    return row && row.status !== 'queued' && row.status !== 'running' ? row : null;
  });
  return { documentId, task };
}

describe('tracing through the real pipeline', () => {
  let ctx: PipelineTestContext;
  beforeAll(async () => {
    ctx = await createPipelineTestApp(
      {
        ...llmEnv(),
        TRACING_PUBLIC_KEY: 'pk-test',
        TRACING_SECRET_KEY: 'sk-test',
        TRACING_HOST: collector.server.url,
      },
      { workers: true },
    );
  }, 180_000);
  afterAll(() => ctx?.close());

  it('exports ingestion.synthetic-qa, rag.query, generation and intent.classify with their attributes', async () => {
    const { documentId, task } = await runScene(ctx);
    expect(task.status).toBe('done');
    expect(task.traceId).toBeTruthy();
    await ctx.container.tracing.flush();

    const hex = (id: string) => id.replaceAll('-', '');
    // Ingestion: one span per chunk, in the document's trace, with model, tokens and cost.
    const [qa] = collector.spans.filter((s) => s.name === 'ingestion.synthetic-qa');
    expect(qa?.traceId).toBe(hex(documentId));
    expect(qa?.attributes).toMatchObject({
      'langfuse.observation.type': 'generation',
      'langfuse.observation.model.name': 'gpt-4o-mini',
      'assistant.document_id': documentId,
      'assistant.chunk_index': 0,
      'assistant.questions_generated': 2,
    });
    expect(qa?.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(qa?.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(qa?.attributes['gen_ai.usage.cost']).toBeGreaterThan(0);

    // The message: every span in the task's trace; the run's traceId where it is known.
    const ofTask = collector.spans.filter((s) => s.traceId === hex(task.id));
    const byName = Object.fromEntries(ofTask.map((s) => [s.name, s.attributes]));
    expect(Object.keys(byName).sort()).toEqual(['generation', 'intent.classify', 'rag.query']);
    for (const attributes of Object.values(byName)) expect(attributes['assistant.task_id']).toBe(task.id);
    expect(byName['rag.query']).toMatchObject({ 'langfuse.observation.type': 'retriever' });
    expect(byName['rag.query']?.['assistant.hits']).toBeGreaterThan(0);
    expect(byName.generation).toMatchObject({
      'langfuse.observation.type': 'generation',
      'langfuse.observation.model.name': 'gpt-4o-mini',
      'assistant.trace_id': task.traceId,
      'gen_ai.usage.input_tokens': task.inputTokens,
      'gen_ai.usage.output_tokens': task.outputTokens,
    });
    expect(byName.generation?.['gen_ai.usage.cost']).toBeCloseTo(task.costUsd, 10);
    expect(byName['intent.classify']).toMatchObject({
      'assistant.trace_id': task.traceId,
      'assistant.intent': 'vacation',
    });
    const expected = `Basic ${Buffer.from('pk-test:sk-test').toString('base64')}`;
    expect(collector.requests.every((r) => r.authorization === expected)).toBe(true);
  }, 60_000);
});

describe('the same pipeline without tracing keys', () => {
  let ctx: PipelineTestContext;
  beforeAll(async () => {
    // The host alone is not enough: without both keys nothing is sent there.
    ctx = await createPipelineTestApp({ ...llmEnv(), TRACING_HOST: collector.server.url }, { workers: true });
  }, 180_000);
  afterAll(() => ctx?.close());

  it('sends the collector nothing and still answers', async () => {
    const before = collector.requests.length;
    const { task } = await runScene(ctx);
    expect(task.status).toBe('done');
    await ctx.container.tracing.flush();
    expect(ctx.container.tracing.enabled).toBe(false);
    expect(collector.requests.length).toBe(before);
  }, 60_000);
});
