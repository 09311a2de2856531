import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { trackAllowedMethods } from '../http/allowed-methods.js';
import { REQUEST_ID_HEADER } from '../http/request-id.js';
import { applySecurityHeaders } from '../http/security-headers.js';
import {
  AppError,
  BadRequestError,
  MethodNotAllowedError,
  RequestHeaderFieldsTooLargeError,
  RequestTimeoutError,
  type ValidationDetail,
} from './app-errors.js';

/** The body of every error response. */
export interface ErrorEnvelope {
  error: string;
  message: string;
  statusCode: number;
  details?: unknown;
  requestId?: string;
}

/**
 * The router's `maxParamLength` (app.ts): above the longest path parameter
 * any schema takes (a trace id, 128), so a shorter value is judged by its
 * schema (422); a longer one names nothing and answers 404.
 */
export const MAX_PARAM_LENGTH = 200;

interface AjvLikeError {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
  /** Present because validation runs with ajv's `verbose`: the schema that failed. */
  parentSchema?: { errorMessage?: unknown; description?: unknown };
}

/** Maps fastify's own error codes to the envelope's error names. */
const FASTIFY_CODES: Record<string, { statusCode: number; error: string; message: string }> = {
  FST_ERR_BAD_URL: {
    statusCode: 400,
    error: 'BadRequestError',
    message: 'The request path is not valid: it has a malformed percent-encoding',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    statusCode: 404,
    error: 'NotFoundError',
    message: `Nothing has a path parameter longer than ${MAX_PARAM_LENGTH} characters`,
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    statusCode: 400,
    error: 'BadRequestError',
    message: 'Body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    statusCode: 400,
    error: 'BadRequestError',
    message: "Body cannot be empty when content-type is set to 'application/json'",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    statusCode: 413,
    error: 'PayloadTooLargeError',
    message: 'Request body is too large',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    statusCode: 415,
    error: 'UnsupportedMediaTypeError',
    message: 'Unsupported content type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    statusCode: 400,
    error: 'BadRequestError',
    message: 'Content-Length does not match the body',
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    statusCode: 415,
    error: 'UnsupportedMediaTypeError',
    message: 'The request is not multipart/form-data',
  },
  FST_REQ_FILE_TOO_LARGE: { statusCode: 413, error: 'PayloadTooLargeError', message: 'File is too large' },
  FST_PARTS_LIMIT: {
    statusCode: 413,
    error: 'PayloadTooLargeError',
    message: 'Too many parts in the request',
  },
  FST_FILES_LIMIT: {
    statusCode: 413,
    error: 'PayloadTooLargeError',
    message: 'Too many files in the request',
  },
  FST_FIELDS_LIMIT: {
    statusCode: 413,
    error: 'PayloadTooLargeError',
    message: 'Too many fields in the request',
  },
};

const ERROR_NAMES_BY_STATUS: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  409: 'ConflictError',
  413: 'PayloadTooLargeError',
  415: 'UnsupportedMediaTypeError',
  422: 'ValidationError',
  429: 'TooManyRequestsError',
};

/** Keywords about an object's shape, whose failing schema is the object, not the field. */
const SHAPE_KEYWORDS = new Set(['type', 'required', 'additionalProperties', 'dependentRequired']);

/**
 * A message for people: the schema's own `errorMessage` when it has one, the
 * allowed values of an enum, the field's description instead of a raw
 * regular expression, else ajv's message.
 */
function messageOf(e: AjvLikeError): string {
  const schema = e.parentSchema;
  if (typeof schema?.errorMessage === 'string' && !SHAPE_KEYWORDS.has(e.keyword ?? '')) {
    return schema.errorMessage;
  }
  const allowed = e.params?.allowedValues;
  if (e.keyword === 'enum' && Array.isArray(allowed)) return `must be one of: ${allowed.join(', ')}`;
  if (e.keyword === 'const' && 'allowedValue' in (e.params ?? {})) {
    return `must be ${JSON.stringify(e.params?.allowedValue)}`;
  }
  if (e.keyword === 'pattern') {
    return typeof schema?.description === 'string'
      ? `is not in the expected form: ${schema.description}`
      : 'is not in the expected form';
  }
  return e.message ?? 'is invalid';
}

/**
 * Turns ajv's errors into `{ field, message }` pairs (`body.email`,
 * `querystring.limit`), one per distinct field and message.
 */
export function validationDetails(errors: readonly AjvLikeError[], context: string): ValidationDetail[] {
  const details = new Map<string, ValidationDetail>();
  for (const e of errors) {
    const pointer = (e.instancePath ?? '').split('/').filter(Boolean).join('.');
    const missing = e.params?.missingProperty ?? e.params?.requiredProperties;
    const extra = e.params?.additionalProperty;
    let field = pointer ? `${context}.${pointer}` : context;
    if (typeof missing === 'string') field = `${field}.${missing}`;
    if (typeof extra === 'string') field = `${field}.${extra}`;
    const message = messageOf(e);
    details.set(`${field}\n${message}`, { field, message });
  }
  return [...details.values()];
}

export function envelope(
  statusCode: number,
  error: string,
  message: string,
  details?: unknown,
): ErrorEnvelope {
  return details === undefined ? { error, message, statusCode } : { error, message, statusCode, details };
}

/** Answers `err` with the envelope; 5xx are logged in full (query parameters left out by the logger). */
function answer(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const body = toEnvelope(err, request);
  if (body.statusCode >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ statusCode: body.statusCode, error: body.error }, body.message);
  const retryAfter = err.statusCode === 429 ? reply.getHeader('retry-after') : undefined;
  if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
  if (err instanceof MethodNotAllowedError) reply.header('allow', err.allow.join(', '));
  return reply.status(body.statusCode).send(body);
}

/**
 * Installs the one error handler and the not-found handler; every error
 * leaves as the envelope. A request no route takes answers 405 with `Allow`
 * when its path has other methods (TRACE, PUT on a read-only path, OPTIONS
 * with CORS off), else 404. Call it before any route is added.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  const allowedMethods = trackAllowedMethods(app);
  app.setErrorHandler(answer);
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    const allow = allowedMethods(request.url);
    if (allow.length > 0 && !allow.includes(request.method)) {
      throw new MethodNotAllowedError(`Method ${request.method} is not allowed on ${path}`, allow);
    }
    return reply
      .status(404)
      .send(envelope(404, 'NotFoundError', `Route ${request.method} ${path} not found`));
  });
}

/**
 * Fastify's `frameworkErrors` option: errors the router raises before any
 * route or hook runs (a malformed percent-encoding, a path parameter over
 * `maxParamLength`), answered in the envelope like every other error. No hook
 * runs for them, so the request id and security headers are set here.
 */
export function handleFrameworkError(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  reply.header(REQUEST_ID_HEADER, request.id);
  applySecurityHeaders(reply);
  return answer(err, request, reply);
}

function toEnvelope(err: FastifyError, request: FastifyRequest): ErrorEnvelope {
  if (err instanceof AppError) return envelope(err.statusCode, err.name, err.message, err.details);
  if (err.validation) {
    return envelope(
      422,
      'ValidationError',
      'Request validation failed',
      validationDetails(err.validation, err.validationContext ?? 'body'),
    );
  }
  const known = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (known) return envelope(known.statusCode, known.error, known.message);
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return envelope(status, ERROR_NAMES_BY_STATUS[status] ?? 'BadRequestError', err.message);
  }
  return {
    error: 'InternalServerError',
    message: `An unexpected error occurred. Quote request id ${request.id} when reporting it.`,
    statusCode: 500,
    requestId: request.id,
  };
}

/** The error for a request Node's HTTP parser refused, by its code. */
function clientErrorOf(code: string | undefined): AppError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new RequestTimeoutError('The request was not received in time');
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new RequestHeaderFieldsTooLargeError('The request headers are too large');
  }
  if (code === 'HPE_INVALID_METHOD') return new BadRequestError('The request method is not an HTTP method');
  return new BadRequestError('The request is not valid HTTP');
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refuses (a method
 * that is not HTTP, a malformed request line, headers over the limit) never
 * reaches Fastify. It is answered here on the socket, in the envelope, and
 * the connection is closed, as Node does.
 */
export function handleClientError(
  this: FastifyInstance,
  err: Error & { code?: string },
  socket: Socket,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error = clientErrorOf(err.code);
  this.log.debug({ code: err.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(envelope(error.statusCode, error.name, error.message));
    socket.write(
      [
        `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(err);
}
