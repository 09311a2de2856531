import type { FastifyContextConfig } from 'fastify';
import { OPERATION_EXAMPLES, RESPONSE_DOCS } from './i18n/index.js';
import { ERROR_EXAMPLES, statusText } from './i18n/responses.js';
import type { OperationExample, ResponseDocs } from './i18n/types.js';
import { exampleFor, type SchemaComponents } from './openapi-examples.js';

type JsonObject = Record<string, unknown>;

/** The `$id` of the shared error envelope, also its component name in the document. */
export const ERROR_ENVELOPE_ID = 'ErrorEnvelope';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Methods whose requests may carry a body, which is parsed (and may be malformed) whatever the route takes. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error statuses any route of this shape can answer, whether or not the
 * route file lists them: 400 for a body that is not JSON (any method that
 * carries one) or a path parameter with a malformed percent-encoding; the
 * auth plugin's 401; the permission check's 403; 404 for a path id that is
 * not found (or out of scope, or longer than any id); and 422 on every route,
 * since every query string (and body) is checked for text PostgreSQL cannot
 * store, besides what the schemas check.
 */
export function commonErrorStatuses(
  schema: JsonObject,
  config: FastifyContextConfig | undefined,
  methods: readonly string[] = ['GET'],
): number[] {
  const statuses: number[] = [];
  const takesBody = schema.body !== undefined || methods.some((m) => BODY_METHODS.has(m.toUpperCase()));
  if (takesBody || schema.params !== undefined) statuses.push(400);
  if (config?.auth === 'user') statuses.push(401);
  if (config?.permission !== undefined) statuses.push(403);
  if (schema.params !== undefined) statuses.push(404);
  statuses.push(422);
  return statuses;
}

/** The route's response map plus the common error responses it does not declare (never mutates the route). */
export function withCommonErrors(
  schema: JsonObject,
  config: FastifyContextConfig | undefined,
  methods?: readonly string[],
): Record<string, unknown> {
  const response: Record<string, unknown> = { ...((schema.response as JsonObject | undefined) ?? {}) };
  for (const status of commonErrorStatuses(schema, config, methods)) {
    if (!(status in response)) response[status] = { $ref: ERROR_ENVELOPE_ID };
  }
  return response;
}

export function operationsOf(spec: JsonObject): JsonObject[] {
  const paths = (spec.paths ?? {}) as Record<string, Record<string, JsonObject>>;
  return Object.values(paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([, operation]) => operation),
  );
}

/** The response description: the operation's own text when the area gives one, else the status's. */
export function responseText(
  operationId: string | undefined,
  status: string,
  lang: 'en' | 'ru' | 'uk',
  docs: ResponseDocs = RESPONSE_DOCS,
): string {
  const own = operationId ? docs[operationId]?.[Number(status)]?.[lang] : undefined;
  return own ?? statusText(status, lang);
}

function isSuccess(status: string): boolean {
  return status.startsWith('2');
}

function isErrorEnvelope(schema: JsonObject): boolean {
  return typeof schema.$ref === 'string' && schema.$ref.endsWith(`/${ERROR_ENVELOPE_ID}`);
}

function addExamples(operation: JsonObject, components: SchemaComponents, own: OperationExample | undefined) {
  const body = operation.requestBody as { content?: Record<string, JsonObject> } | undefined;
  for (const media of Object.values(body?.content ?? {})) {
    if (media.example !== undefined || media.examples !== undefined) continue;
    media.example =
      own?.request !== undefined ? own.request : exampleFor((media.schema ?? {}) as JsonObject, components);
  }
  const responses = (operation.responses ?? {}) as Record<string, JsonObject>;
  for (const [status, response] of Object.entries(responses)) {
    const content = (response.content ?? {}) as Record<string, JsonObject>;
    for (const media of Object.values(content)) {
      if (media.example !== undefined || media.examples !== undefined) continue;
      const schema = (media.schema ?? {}) as JsonObject;
      if (isSuccess(status) && own?.response !== undefined) media.example = own.response;
      else if (isErrorEnvelope(schema) && ERROR_EXAMPLES[Number(status)]) {
        media.example = ERROR_EXAMPLES[Number(status)];
      } else media.example = exampleFor(schema, components);
    }
  }
}

/**
 * Finishes the generated document once, before it is cached: every response
 * gets its English description instead of fastify-swagger's "Default
 * Response", and every request body and response body gets an example.
 */
export function completeDocument(spec: JsonObject): JsonObject {
  const components = ((spec.components as JsonObject | undefined)?.schemas ?? {}) as SchemaComponents;
  for (const operation of operationsOf(spec)) {
    const operationId = operation.operationId as string | undefined;
    const responses = (operation.responses ?? {}) as Record<string, JsonObject>;
    for (const [status, response] of Object.entries(responses)) {
      response.description = responseText(operationId, status, 'en');
    }
    addExamples(operation, components, operationId ? OPERATION_EXAMPLES[operationId] : undefined);
  }
  return spec;
}
