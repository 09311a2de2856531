import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';
import type { FileDocumentType } from '../document-files.js';
import type { Extraction } from './decode.js';
import type { Decoder } from './decoder.js';
import { IngestionError } from './errors.js';
import { markdownBlocks, plainTextBlocks } from './text-blocks.js';
import type { FetchedResource } from './url-fetch.js';

export type { Extraction } from './decode.js';

export interface ExtractDeps {
  /** Reads binary files and HTML pages in isolated decoder processes. */
  decoder: Decoder;
  fetchUrl(url: string): Promise<FetchedResource>;
}

/** Decodes text in the charset a Content-Type names (UTF-8 when none, or an unknown one). */
export function decodeText(bytes: Buffer, contentType: string | null = null): string {
  const charset = /charset="?([\w-]+)"?/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    // An unknown label: read it as UTF-8 rather than refuse the page.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * The text of an uploaded file as blocks: PDF text layer (OCR for pages
 * without one), DOCX through mammoth and PNG and JPEG through OCR, each in
 * a decoder process under the configured caps; Markdown and plain text as
 * written.
 * @throws IngestionError when the content cannot be read or a decoder ended at a limit.
 */
export async function extractFile(
  type: FileDocumentType,
  bytes: Buffer,
  deps: Pick<ExtractDeps, 'decoder'>,
): Promise<Extraction> {
  switch (type) {
    case 'md':
      return { blocks: markdownBlocks(decodeText(bytes)), title: null, details: { extractor: 'markdown' } };
    case 'txt':
      return { blocks: plainTextBlocks(decodeText(bytes)), title: null, details: { extractor: 'text' } };
    default:
      return deps.decoder.file(type, bytes);
  }
}

const BINARY_BY_MIME: Record<string, FileDocumentType> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'image/png': 'png',
  'image/jpeg': 'jpg',
};

/**
 * Fetches a URL (with the guards of the fetcher) and reads it: an HTML page
 * is reduced to its main text; a PDF, DOCX or image behind the URL is read as
 * the upload would be; plain text and Markdown as they are.
 * @throws IngestionError for a refused URL or content of another kind.
 */
export async function extractUrl(url: string, deps: ExtractDeps): Promise<Extraction> {
  const fetched = await deps.fetchUrl(url);
  const source = { sourceUrl: fetched.url, redirects: fetched.redirects, contentType: fetched.contentType };
  const sniffed = await fileTypeFromBuffer(fetched.body);
  const binary = sniffed ? BINARY_BY_MIME[sniffed.mime] : undefined;
  if (binary) {
    const extraction = await extractFile(binary, fetched.body, deps);
    return { ...extraction, details: { ...extraction.details, ...source } };
  }
  const mime = (fetched.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  // A signature of a format we do not read ("BM…" reads as BMP) loses to a body that is valid UTF-8 text.
  if (sniffed && !mime.startsWith('text/') && !isUtf8(fetched.body)) {
    throw new IngestionError(`The URL answered ${sniffed.mime}, which is not a supported document type`);
  }
  const text = decodeText(fetched.body, fetched.contentType);
  if (mime === 'text/html' || mime === 'application/xhtml+xml' || (!mime && /^\s*</.test(text))) {
    const page = await deps.decoder.htmlPage(text);
    return { blocks: page.blocks, title: page.title, details: { extractor: 'html', ...source }, html: text };
  }
  if (mime === 'text/markdown' || mime === 'text/x-markdown') {
    return { blocks: markdownBlocks(text), title: null, details: { extractor: 'markdown', ...source } };
  }
  if (mime === 'text/plain' || mime === '') {
    return { blocks: plainTextBlocks(text), title: null, details: { extractor: 'text', ...source } };
  }
  throw new IngestionError(`The URL answered ${mime}, which is not a supported document type`);
}
