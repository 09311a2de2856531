import type { IncomingMessage } from 'node:http';
import { type LocalHttpServer, startHttpServer } from '../http-server.js';

/** One span as an OTLP/HTTP JSON export carries it, attributes flattened. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  attributes: Record<string, unknown>;
}

export interface Collector {
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

/**
 * A local stand-in for a Langfuse-compatible service: a real HTTP server
 * taking OTLP/HTTP JSON at /api/public/otel/v1/traces. Its url is the value
 * for TRACING_HOST.
 */
export async function startCollector(): Promise<Collector> {
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
