import { describe, expect, it } from 'vitest';
import type { Decoder } from './decoder.js';
import { type ExtractDeps, extractUrl } from './extract.js';

/** Text never reaches a decoder process; a decoder call here would be the bug. */
const noDecoder: Decoder = {
  file: async () => {
    throw new Error('a decoder must not run for text');
  },
  htmlPage: async () => {
    throw new Error('a decoder must not run for text');
  },
};

const serving = (body: Buffer, contentType: string | null): ExtractDeps => ({
  decoder: noDecoder,
  fetchUrl: async (url) => ({ url, contentType, body, redirects: 0 }),
});

describe('extractUrl type detection', () => {
  it.each([
    ['a BMP signature', 'BM stands for Business Manager.'],
    ['a QuickTime signature', 'Set free the birds, then write it down.'],
  ])('reads UTF-8 text served without a Content-Type that starts like %s as text', async (_label, text) => {
    const extraction = await extractUrl('https://example.com/notes', serving(Buffer.from(text), null));
    expect(extraction.details).toMatchObject({ extractor: 'text' });
    expect(extraction.blocks.map((b) => b.text).join(' ')).toContain(text);
  });

  it('still refuses a real binary of a format it does not read', async () => {
    const bmp = Buffer.concat([Buffer.from('BM'), Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x80])]);
    await expect(extractUrl('https://example.com/x.bmp', serving(bmp, null))).rejects.toThrow(/image\/bmp/);
  });
});
