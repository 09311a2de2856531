import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGraphServer, startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import { createDecoder } from '../../modules/knowledge/ingestion/decoder.js';
import { extractFile } from '../../modules/knowledge/ingestion/extract.js';
import { createMediaReader, MediaError, readableTypeOf } from './media.js';

let graph: FakeGraphServer;
const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-media-'));
const decoder = createDecoder({
  dataDir,
  limits: {
    timeoutMs: 60_000,
    memoryMb: 256,
    maxInflatedBytes: 1024 * 1024,
    maxPixels: 1_000_000,
    maxPages: 10,
  },
});

beforeAll(async () => {
  graph = await startFakeGraphServer();
});
afterAll(async () => {
  await graph?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A reader against the fake Graph server, reading files with the ingestion extractors. */
const reader = (options: { maxBytes?: number; token?: string | null } = {}) =>
  createMediaReader({
    apiBaseUrl: `${graph.url}/v21.0`,
    accessToken: async () => (options.token === undefined ? 'media-token' : options.token),
    readText: async (type, bytes) => {
      const extraction = await extractFile(type, bytes, { decoder });
      return extraction.blocks.map((b) => b.text).join('\n\n');
    },
    maxBytes: options.maxBytes ?? 1024 * 1024,
  });

const failureOf = async (promise: Promise<unknown>): Promise<MediaError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaError);
  return error as MediaError;
};

describe('media reader', () => {
  it('looks the media up, downloads it with the bearer token and reads its text', async () => {
    graph.addMedia('txt-1', {
      mimeType: 'text/plain',
      bytes: Buffer.from('Payday is the 25th of each month.'),
    });
    const read = await reader().readMedia('txt-1', 'text/plain');
    expect(read).toEqual({ mimeType: 'text/plain', type: 'txt', text: 'Payday is the 25th of each month.' });
    const calls = graph.requests.filter((r) => r.path === '/txt-1' || r.path === '/media-download/txt-1');
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer media-token', 'Bearer media-token']);
  });

  it('refuses a file over the size limit and a type whose text is not read, for good', async () => {
    graph.addMedia('big-1', { mimeType: 'text/plain', bytes: Buffer.alloc(2048, 'a') });
    expect((await failureOf(reader({ maxBytes: 1000 }).readMedia('big-1', 'text/plain'))).transient).toBe(
      false,
    );
    graph.addMedia('webp-1', { mimeType: 'image/webp', bytes: Buffer.from('RIFF') });
    expect((await failureOf(reader().readMedia('webp-1', 'image/webp'))).transient).toBe(false);
    expect(readableTypeOf('application/pdf; charset=binary')).toBe('pdf');
    expect(readableTypeOf(null)).toBeNull();
  });

  it('tells a passing platform failure (5xx, 429) from a lasting one (404, no token)', async () => {
    graph.replyNext('media', { status: 503, body: { error: { message: 'Service unavailable', code: 2 } } });
    expect((await failureOf(reader().readMedia('txt-1', 'text/plain'))).transient).toBe(true);
    graph.replyNext('media', graph.graphError(429, 'Rate limited', 4));
    expect((await failureOf(reader().readMedia('txt-1', 'text/plain'))).transient).toBe(true);
    expect((await failureOf(reader().readMedia('unknown-media', 'text/plain'))).transient).toBe(false);
    expect((await failureOf(reader({ token: null }).readMedia('txt-1', 'text/plain'))).transient).toBe(false);
  });
});
