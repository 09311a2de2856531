import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corruptPng, pngDeclaring } from '../../../../test/files.js';
import { docx, multiPageTextPdf } from '../../../../test/fixtures/documents.js';
import type { Config } from '../../../core/config/config.js';
import { createDecoder } from './decoder.js';
import { IngestionError } from './errors.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-decoder-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const limits: Config['decoders'] = {
  timeoutMs: 60_000,
  memoryMb: 512,
  maxInflatedBytes: 10 * 1024 * 1024,
  maxPixels: 1_000_000,
  maxPages: 2,
};
const decoderWith = (overrides: Partial<Config['decoders']> = {}) =>
  createDecoder({ dataDir, limits: { ...limits, ...overrides } });

const reasonOf = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IngestionError);
  return (error as Error).message;
};

const pages = (count: number) =>
  multiPageTextPdf(Array.from({ length: count }, (_, i) => [`Page ${i + 1} text.`]));

describe('decoder', () => {
  it('reads a PDF within DECODER_MAX_PAGES and refuses one over it', async () => {
    const decoder = decoderWith();
    const read = await decoder.file('pdf', pages(2));
    expect(read.details).toMatchObject({ extractor: 'pdf', pages: 2 });
    expect(await reasonOf(decoder.file('pdf', pages(3)))).toBe(
      'The PDF has 3 pages, more than 2 (DECODER_MAX_PAGES)',
    );
  });

  it('refuses a DOCX whose entries declare more than DECODER_MAX_INFLATED_BYTES', async () => {
    const file = docx([{ text: 'Holiday rota' }]);
    expect((await decoderWith().file('docx', file)).blocks.map((b) => b.text)).toEqual(['Holiday rota']);
    expect(await reasonOf(decoderWith({ maxInflatedBytes: 1024 }).file('docx', file))).toBe(
      'The DOCX file inflates to more than 1024 bytes (DECODER_MAX_INFLATED_BYTES)',
    );
  });

  it('refuses an image over DECODER_MAX_PIXELS by its header', async () => {
    expect(await reasonOf(decoderWith().file('png', pngDeclaring(2000, 1000)))).toBe(
      'The PNG image is 2000 × 1000 pixels, more than 1000000 (DECODER_MAX_PIXELS)',
    );
  });

  it('fails a corrupt PNG with the reason its OCR worker gave', async () => {
    expect(await reasonOf(decoderWith().file('png', corruptPng()))).toMatch(
      /^The PNG image could not be read: the decoder crashed: .*Error attempting to read image/,
    );
  });

  it('ends a page that exhausts the heap at DECODER_MEMORY_MB (heap out of memory)', async () => {
    // 400,000 nested elements: the parsed DOM needs far more than a 32 MB heap.
    const page = `<html><body>${'<div><p>word</p></div>'.repeat(400_000)}</body></html>`;
    expect(await reasonOf(decoderWith({ memoryMb: 32 }).htmlPage(page))).toBe(
      'The web page could not be read: its decoder ended at its memory limit of 32 MB (heap out of memory, DECODER_MEMORY_MB)',
    );
  });
});
