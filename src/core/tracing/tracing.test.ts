import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalHttpServer, startHttpServer } from '../../../test/http-server.js';
import { createTracing, NO_TRACING, type SpanName } from './tracing.js';

/** One span as an OTLP/HTTP JSON export carries it, attributes flattened. */
interface ReceivedSpan {
  name: string;
  traceId: string;
  attributes: Record<string, unknown>;
}

interface Collector {
  server: LocalHttpServer;
  requests: Array<{ path: string; authorization: string | undefined }>;
  spans: ReceivedSpan[];
}

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
  });

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};

/** A local stand-in for a Langfuse-compatible service: OTLP/HTTP JSON at /api/public/otel/v1/traces. */
async function startCollector(): Promise<Collector> {
  const requests: Collector['requests'] = [];
  const spans: ReceivedSpan[] = [];
  const server = await startHttpServer(async (request, response) => {
    const text = await body(request);
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization });
    if (request.url === '/api/public/otel/v1/traces') {
      const payload = JSON.parse(text) as {
        resourceSpans: Array<{
          scopeSpans: Array<{
            spans: Array<{
              name: string;
              traceId: string;
              attributes: Array<{ key: string; value: OtlpValue }>;
            }>;
          }>;
        }>;
      };
      for (const resource of payload.resourceSpans)
        for (const scope of resource.scopeSpans)
          for (const span of scope.spans) {
            const attributes = Object.fromEntries(
              span.attributes.map(({ key, value }) => [
                key,
                value.stringValue ??
                  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
                  value.doubleValue ??
                  value.boolValue,
              ]),
            );
            spans.push({ name: span.name, traceId: span.traceId, attributes });
          }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  return { server, requests, spans };
}

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
