import { randomBytes } from 'node:crypto';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { type Attributes, ROOT_CONTEXT, type Span, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, type IdGenerator } from '@opentelemetry/sdk-trace-base';

/** The spans the service exports, exactly as the interface names them. */
export type SpanName = 'intent.classify' | 'ingestion.synthetic-qa' | 'rag.query' | 'generation';

/** What a span says about the model call or lookup it wraps. */
export interface SpanFacts {
  /** The task whose work this is: its id becomes the trace id, so one task is one trace. */
  taskId?: string | null;
  /** The task's traceId (its AgentRun), when it is known. */
  traceId?: string | null;
  /**
   * The document being ingested (ingestion spans have no task): its id becomes
   * the trace id when there is no task, so one ingestion run is one trace.
   */
  documentId?: string | null;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** Anything else worth seeing beside the span (hit counts, the intent found…). */
  extra?: Record<string, string | number | boolean>;
}

/** The handle a traced function gets, to add what it learns while it runs. */
export interface TraceSpan {
  record(facts: SpanFacts): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Runs `fn` inside a span `name` (a no-op without tracing keys); the span ends when `fn` settles. */
  span<T>(name: SpanName, facts: SpanFacts, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** Sends what is buffered (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface TracingConfig {
  publicKey: string | null;
  secretKey: string | null;
  host: string | null;
}

const NOOP_SPAN: TraceSpan = { record: () => undefined };

/** Tracing switched off: `span` just calls through, with nothing allocated and no network. */
export const NO_TRACING: Tracing = {
  enabled: false,
  span: (_name, _facts, fn) => fn(NOOP_SPAN),
  flush: async () => undefined,
  close: async () => undefined,
};

const OBSERVATION_TYPE: Record<SpanName, string> = {
  generation: 'generation',
  'ingestion.synthetic-qa': 'generation',
  'rag.query': 'retriever',
  'intent.classify': 'span',
};

/** The Langfuse (and OpenTelemetry gen_ai) attributes of the facts given. */
export function attributesOf(facts: SpanFacts): Attributes {
  const attributes: Attributes = {};
  if (facts.taskId) attributes['assistant.task_id'] = facts.taskId;
  if (facts.documentId) attributes['assistant.document_id'] = facts.documentId;
  if (facts.traceId) {
    attributes['assistant.trace_id'] = facts.traceId;
    attributes['langfuse.observation.metadata.traceId'] = facts.traceId;
  }
  if (facts.model) {
    attributes['langfuse.observation.model.name'] = facts.model;
    attributes['gen_ai.request.model'] = facts.model;
  }
  if (facts.inputTokens !== undefined || facts.outputTokens !== undefined) {
    const input = facts.inputTokens ?? 0;
    const output = facts.outputTokens ?? 0;
    attributes['gen_ai.usage.input_tokens'] = input;
    attributes['gen_ai.usage.output_tokens'] = output;
    attributes['langfuse.observation.usage_details'] = JSON.stringify({
      input,
      output,
      total: input + output,
    });
  }
  if (facts.costUsd !== undefined) {
    attributes['gen_ai.usage.cost'] = facts.costUsd;
    attributes['langfuse.observation.cost_details'] = JSON.stringify({ total: facts.costUsd });
  }
  for (const [key, value] of Object.entries(facts.extra ?? {})) attributes[`assistant.${key}`] = value;
  return attributes;
}

const HEX_UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * Tracing to a Langfuse-compatible service over OpenTelemetry (OTLP/HTTP to
 * `<host>/api/public/otel/v1/traces`) when both keys are set; NO_TRACING
 * otherwise. The provider is not registered globally: only these spans go out.
 */
export function createTracing(config: TracingConfig): Tracing {
  if (!config.publicKey || !config.secretKey) return NO_TRACING;
  // A span of a task starts a trace whose id is the task id (hex), so every span of one task
  // lands in one trace; the id is handed over synchronously, just before the span starts.
  let nextTraceId: string | null = null;
  const random = (bytes: number) => randomBytes(bytes).toString('hex');
  const idGenerator: IdGenerator = {
    generateTraceId: () => nextTraceId ?? random(16),
    generateSpanId: () => random(8),
  };
  const processor = new LangfuseSpanProcessor({
    publicKey: config.publicKey,
    secretKey: config.secretKey,
    ...(config.host ? { baseUrl: config.host } : {}),
    // Every span this provider makes is one of ours: export them all.
    shouldExportSpan: () => true,
    mediaUploadEnabled: false,
  });
  const provider = new BasicTracerProvider({ idGenerator, spanProcessors: [processor] });
  const tracer = provider.getTracer('assistant-service');

  return {
    enabled: true,
    async span<T>(name: SpanName, facts: SpanFacts, fn: (span: TraceSpan) => Promise<T>): Promise<T> {
      const owner = facts.taskId ?? facts.documentId;
      nextTraceId = owner && HEX_UUID.test(owner) ? owner.replaceAll('-', '').toLowerCase() : null;
      let span: Span;
      try {
        span = tracer.startSpan(
          name,
          { attributes: { 'langfuse.observation.type': OBSERVATION_TYPE[name], ...attributesOf(facts) } },
          ROOT_CONTEXT,
        );
      } finally {
        nextTraceId = null;
      }
      try {
        const result = await fn({ record: (more) => span.setAttributes(attributesOf(more)) });
        span.end();
        return result;
      } catch (error) {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
        span.end();
        throw error;
      }
    },
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}
