import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { genReqId, registerRequestIdHeader } from '../http/request-id.js';
import { ConflictError } from './app-errors.js';
import { registerErrorHandling, validationDetails } from './error-handler.js';

const ctx = useTestApp();

const login = (payload: string | Buffer, contentType = 'application/json') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': contentType },
    payload,
  });

describe('the error envelope on the service', () => {
  it('answers 400 BadRequestError for a body that is not JSON', async () => {
    const res = await login('{"email": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'BadRequestError',
      message: 'Body is not valid JSON',
      statusCode: 400,
    });
  });

  it('answers 404 NotFoundError for an unknown route', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'NotFoundError',
      message: 'Route GET /api/v1/nothing-here not found',
      statusCode: 404,
    });
  });

  it('answers 413 PayloadTooLargeError for a body over the limit', async () => {
    const res = await login(JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('PayloadTooLargeError');
  });

  it('answers 415 UnsupportedMediaTypeError for a content type the route does not take', async () => {
    const res = await login('email=a', 'text/csv');
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('UnsupportedMediaTypeError');
  });

  it('answers 422 ValidationError with details for a bad body', async () => {
    const res = await login(JSON.stringify({ email: 5 }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { field: 'body.email', message: expect.any(String) },
        { field: 'body.password', message: expect.any(String) },
      ]),
    );
  });
});

describe('unexpected errors', () => {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: 'error', stream: { write: (line: string) => void lines.push(line) } },
  });
  registerErrorHandling(app);
  app.get('/boom', async () => {
    throw new Error('db password=hunter2 leaked in a driver message');
  });
  app.get('/conflict', async () => {
    throw new ConflictError('Slug sales is taken');
  });
  afterAll(() => app.close());

  it('answers 500 with a generic message and the request id, and logs the error with that id', async () => {
    const res = await app.inject({ url: '/boom', headers: { 'x-request-id': 'req-123' } });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({
      error: 'InternalServerError',
      message: expect.stringContaining(body.requestId),
      statusCode: 500,
      requestId: expect.any(String),
    });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('at ');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.reqId === body.requestId);
    expect(logged?.err?.message).toContain('leaked');
  });

  it('uses the AppError class name as `error`', async () => {
    const res = await app.inject({ url: '/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ConflictError', message: 'Slug sales is taken', statusCode: 409 });
  });
});

describe('the request id of a 500', () => {
  const app = Fastify({ genReqId });
  registerRequestIdHeader(app);
  registerErrorHandling(app);
  app.get('/boom', async () => {
    throw new Error('unexpected');
  });
  afterAll(() => app.close());

  it("is the X-Request-Id of the response, the caller's own when it is sane", async () => {
    const generated = await app.inject({ url: '/boom' });
    expect(generated.json().requestId).toBe(generated.headers['x-request-id']);
    const given = await app.inject({ url: '/boom', headers: { 'x-request-id': 'lb-7f3a' } });
    expect(given.headers['x-request-id']).toBe('lb-7f3a');
    expect(given.json().requestId).toBe('lb-7f3a');
  });
});

describe('validationDetails', () => {
  it('reads a description instead of a pattern, lists enum values and reports a field and message once', () => {
    const details = validationDetails(
      [
        {
          instancePath: '/slug',
          keyword: 'pattern',
          message: 'must match pattern "^[a-z]+$"',
          parentSchema: { description: 'lower-case letters' },
        },
        {
          instancePath: '/slug',
          keyword: 'pattern',
          message: 'x',
          parentSchema: { description: 'lower-case letters' },
        },
        { instancePath: '/kind', keyword: 'enum', params: { allowedValues: ['a', 'b'] }, message: 'x' },
        {
          instancePath: '/password',
          keyword: 'minLength',
          message: 'must NOT have fewer than 8 characters',
          parentSchema: { errorMessage: 'must follow the password rule' },
        },
      ],
      'body',
    );
    expect(details).toEqual([
      { field: 'body.slug', message: 'is not in the expected form: lower-case letters' },
      { field: 'body.kind', message: 'must be one of: a, b' },
      { field: 'body.password', message: 'must follow the password rule' },
    ]);
  });
});
