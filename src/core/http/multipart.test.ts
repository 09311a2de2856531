import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunked, cutBody, multipartBody } from '../../../test/files.js';
import { registerErrorHandling } from '../errors/error-handler.js';
import { bufferStream, describeForm, readMultipartForm } from './multipart.js';

const MAX = 1024;
/** What `store` kept and `discard` has not removed yet: must be empty after every refused form. */
const kept = new Set<Buffer>();

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  registerErrorHandling(app);
  await app.register(multipart, { limits: { fileSize: 10 * MAX, files: 1, fields: 5 } });
  app.post('/form', async (request) => {
    const form = await readMultipartForm(request, {
      maxBytes: MAX,
      tooLargeMessage: 'too large',
      fileField: 'file',
      store: async (stream) => {
        const bytes = await bufferStream(stream);
        kept.add(bytes);
        return bytes;
      },
      discard: async (bytes) => {
        kept.delete(bytes);
      },
    });
    if (form.file) kept.delete(form.file.content);
    return { ...describeForm(form), text: form.file?.content.toString() ?? null };
  });
  await app.ready();
});
afterAll(() => app?.close());

const post = (payload: Buffer | NodeJS.ReadableStream, contentType: string) =>
  app.inject({ method: 'POST', url: '/form', headers: { 'content-type': contentType }, payload });

describe('readMultipartForm', () => {
  it('answers the fields and the file with its counted size, whatever the chunking', async () => {
    const { body, contentType } = multipartBody({
      title: 'T',
      file: { filename: 'a.txt', content: Buffer.from('hello'), contentType: 'text/plain' },
    });
    const res = await post(chunked(body, [10, 50, 120]), contentType);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      fields: { title: 'T' },
      file: { fieldname: 'file', filename: 'a.txt', mimetype: 'text/plain', size: 5 },
      text: 'hello',
    });
  });

  it('skips a file under another field name, and refuses a second file', async () => {
    const other = multipartBody({ title: 'T', other: { filename: 'x.txt', content: Buffer.from('x') } });
    const skipped = await post(other.body, other.contentType);
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toMatchObject({ fields: { title: 'T' }, file: null });
    const two = multipartBody({
      file: { filename: 'a.txt', content: Buffer.from('a') },
      second: { filename: 'b.txt', content: Buffer.from('b') },
    });
    const res = await post(two.body, two.contentType);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The form may carry only one file');
    expect(kept.size).toBe(0);
  });

  it('takes exactly maxBytes, refuses one byte more whatever the chunking, and discards what it stored', async () => {
    const make = (size: number) =>
      multipartBody({ file: { filename: 'a.bin', content: Buffer.alloc(size, 'x') }, note: 'n' });
    const exact = make(MAX);
    expect((await post(exact.body, exact.contentType)).statusCode).toBe(200);
    const { body, contentType } = make(MAX + 1);
    const atLimit = body.indexOf('xxxx') + MAX;
    for (const payload of [body, chunked(body, [atLimit]), chunked(body, [atLimit - 1, atLimit + 1])]) {
      const res = await post(payload, contentType);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: 'PayloadTooLargeError', message: 'too large', statusCode: 413 });
    }
    expect(kept.size).toBe(0);
  });

  it('answers 400 for a missing boundary and for a body cut before its closing boundary, keeping nothing', async () => {
    const { body, contentType } = multipartBody({ file: { filename: 'a.txt', content: Buffer.from('hi') } });
    for (const [payload, type] of [
      [body, 'multipart/form-data'],
      [body, 'multipart/form-data; boundary=""'],
      [cutBody(body, 'hi', 1), contentType],
      [body.subarray(0, body.length - 4), contentType],
    ] as const) {
      const res = await post(payload, type);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('BadRequestError');
    }
    expect(kept.size).toBe(0);
  });

  it('answers 422 for a field or file name with a NUL character, keeping nothing', async () => {
    for (const form of [
      multipartBody({ title: 'a\u0000b', file: { filename: 'a.txt', content: Buffer.from('hi') } }),
      multipartBody({ file: { filename: 'a\u0000.txt', content: Buffer.from('hi') } }),
    ]) {
      const res = await post(form.body, form.contentType);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'ValidationError', message: 'Request validation failed' });
    }
    expect(kept.size).toBe(0);
  });

  it('answers 415 for a body that is not multipart and 413 for too many fields', async () => {
    expect((await post(Buffer.from('{}'), 'application/json')).statusCode).toBe(415);
    const fields = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, 'v']));
    const { body, contentType } = multipartBody(fields);
    expect((await post(body, contentType)).statusCode).toBe(413);
  });
});
