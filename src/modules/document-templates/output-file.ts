import type { OutputFormat } from './document-templates.schemas.js';
import { markdownToDocx } from './markdown-docx.js';
import { markdownToHtmlPage } from './render.js';

export type FileFormat = Exclude<OutputFormat, 'pdf'>;

export const CONTENT_TYPES: Record<FileFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** A generated file: its bytes, content type and download name. */
export interface OutputFile {
  format: FileFormat;
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

/**
 * A file name from a template name: lower-case letters and digits of any
 * script joined by hyphens, at most 80 characters; `document` when nothing is left.
 */
export function fileSlug(name: string): string {
  const slug = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug || 'document';
}

/**
 * `Content-Disposition` for a download: an ASCII `filename` every client
 * reads, plus the UTF-8 `filename*` (RFC 6266) when the name has other letters.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Builds the file of `format` from rendered Markdown; `title` names the HTML page and the DOCX. */
export async function buildOutput(format: FileFormat, markdown: string, title: string): Promise<OutputFile> {
  const fileName = `${fileSlug(title)}.${format}`;
  const contentType = CONTENT_TYPES[format];
  switch (format) {
    case 'md':
      return { format, bytes: Buffer.from(markdown, 'utf8'), contentType, fileName };
    case 'html':
      return {
        format,
        bytes: Buffer.from(markdownToHtmlPage(markdown, title), 'utf8'),
        contentType,
        fileName,
      };
    case 'docx':
      return { format, bytes: await markdownToDocx(markdown, title), contentType, fileName };
  }
}
