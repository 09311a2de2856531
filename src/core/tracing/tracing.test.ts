import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../../test/fakes/otel-collector.js';
import { createTracing, NO_TRACING, type SpanName } from './tracing.js';

let collector: Collector;
beforeAll(async () => {
  collector = await startCollector();
});
afterAll(() => collector.server.close());

describe('tracing', () => {
  it('exports the four spans with model, tokens, cost and the task’s traceId, to the Langfuse OTel endpoint', async () => {
    const tracing = createTracing({ publicKey: 'pk-test', secretKey: 'sk-test', host: collector.server.url });
    const taskId = randomUUID();
    const traceId = randomUUID();
    const names: SpanName[] = ['intent.classify', 'ingestion.synthetic-qa', 'rag.query', 'generation'];
    for (const name of names) {
      await tracing.span(name, { taskId, traceId, model: 'gpt-test' }, async (span) => {
        span.record({ inputTokens: 120, outputTokens: 30, costUsd: 0.0004 });
      });
    }
    await expect(
      tracing.span('generation', { taskId }, async () => {
        throw new Error('model down');
      }),
    ).rejects.toThrow('model down');
    await tracing.flush();
    await tracing.close();

    expect(collector.spans.map((s) => s.name)).toEqual([...names, 'generation']);
    const [generation] = collector.spans.filter((s) => s.name === 'generation');
    expect(generation?.traceId).toBe(taskId.replaceAll('-', ''));
    expect(generation?.attributes).toMatchObject({
      'langfuse.observation.type': 'generation',
      'langfuse.observation.model.name': 'gpt-test',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cost': 0.0004,
      'assistant.task_id': taskId,
      'assistant.trace_id': traceId,
    });
    expect(JSON.parse(String(generation?.attributes['langfuse.observation.usage_details']))).toEqual({
      input: 120,
      output: 30,
      total: 150,
    });
    expect(JSON.parse(String(generation?.attributes['langfuse.observation.cost_details']))).toEqual({
      total: 0.0004,
    });
    const expected = `Basic ${Buffer.from('pk-test:sk-test').toString('base64')}`;
    expect(collector.requests.every((r) => r.authorization === expected)).toBe(true);
  });

  it('puts an ingestion span without a task in the trace of its document', async () => {
    const tracing = createTracing({ publicKey: 'pk-test', secretKey: 'sk-test', host: collector.server.url });
    const documentId = randomUUID();
    await tracing.span('ingestion.synthetic-qa', { documentId, model: 'gpt-test' }, async () => undefined);
    await tracing.flush();
    await tracing.close();
    const span = collector.spans.find((s) => s.attributes['assistant.document_id'] === documentId);
    expect(span?.name).toBe('ingestion.synthetic-qa');
    expect(span?.traceId).toBe(documentId.replaceAll('-', ''));
    expect(span?.attributes['assistant.task_id']).toBeUndefined();
  });

  it('without both keys makes no request and fails nothing', async () => {
    const before = collector.requests.length;
    for (const config of [
      { publicKey: null, secretKey: null, host: collector.server.url },
      { publicKey: 'pk-test', secretKey: null, host: collector.server.url },
    ]) {
      const tracing = createTracing(config);
      expect(tracing).toBe(NO_TRACING);
      expect(await tracing.span('rag.query', { model: 'm' }, async () => 42)).toBe(42);
      await tracing.flush();
      await tracing.close();
    }
    expect(collector.requests.length).toBe(before);
  });
});
