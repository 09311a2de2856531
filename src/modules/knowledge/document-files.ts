import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';

/** Document types: the accepted upload formats, and `url` for fetched pages. */
export const DOCUMENT_TYPES = ['pdf', 'docx', 'txt', 'md', 'png', 'jpg', 'url'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export type FileDocumentType = Exclude<DocumentType, 'url'>;

/** Binary formats, recognised by their magic bytes whatever the file is called. */
const BINARY_TYPES: Record<string, FileDocumentType> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'image/png': 'png',
  'image/jpeg': 'jpg',
};

export const MIME_TYPES: Record<FileDocumentType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  md: 'text/markdown',
  png: 'image/png',
  jpg: 'image/jpeg',
};

/** Text formats have no magic bytes: the name decides between them, and text without an extension is TXT. */
const TEXT_EXTENSIONS: Record<string, FileDocumentType> = {
  '': 'txt',
  '.txt': 'txt',
  '.text': 'txt',
  '.md': 'md',
  '.markdown': 'md',
};

const TEXT_SNIFF_BYTES = 64 * 1024;

/** True when the file's start is UTF-8 text without NUL bytes (a cut multi-byte character at the end is fine). */
async function looksLikeText(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(TEXT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, TEXT_SNIFF_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) return false;
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * The document type of an uploaded file, decided by content first (PDF,
 * DOCX, PNG, JPEG by magic bytes) and by name for text (TXT, Markdown);
 * null for anything else, a text file under a binary name included.
 */
export async function detectFileType(filePath: string, fileName: string): Promise<FileDocumentType | null> {
  const sniffed = await fileTypeFromFile(filePath);
  if (sniffed) return BINARY_TYPES[sniffed.mime] ?? null;
  const extension = path.extname(fileName).toLowerCase();
  const textType = TEXT_EXTENSIONS[extension];
  if (!textType) return null;
  return (await looksLikeText(filePath)) ? textType : null;
}

export class FileTooLargeError extends Error {}

/** Stored files of uploaded documents, under DATA_DIR/documents, named `<documentId>.<type>`. */
export function createDocumentFiles(dataDir: string) {
  const dir = path.join(dataDir, 'documents');
  const incoming = path.join(dir, '.incoming');

  /** The path of a stored file; null for a name that is not a plain file name. */
  const pathOf = (fileName: string): string | null =>
    path.basename(fileName) === fileName && !fileName.startsWith('.') ? path.join(dir, fileName) : null;

  return {
    dir,

    /**
     * Streams an upload to a temporary file and answers its path and size.
     * @throws FileTooLargeError when the stream was cut at the size limit (the temp file is removed).
     */
    async receive(stream: Readable & { truncated?: boolean }): Promise<{ tempPath: string; size: number }> {
      await mkdir(incoming, { recursive: true });
      const tempPath = path.join(incoming, `${randomUUID()}.part`);
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      try {
        await pipeline(stream, createWriteStream(tempPath));
      } catch (error) {
        await rm(tempPath, { force: true });
        throw error;
      }
      if (stream.truncated) {
        await rm(tempPath, { force: true });
        throw new FileTooLargeError();
      }
      return { tempPath, size };
    },

    /** Moves a received file to its final name. */
    async keep(tempPath: string, documentId: string, type: FileDocumentType): Promise<string> {
      const fileName = `${documentId}.${type}`;
      await rename(tempPath, path.join(dir, fileName));
      return fileName;
    },

    async discard(tempPath: string): Promise<void> {
      if (path.dirname(tempPath) === incoming) await rm(tempPath, { force: true });
    },

    /** The stored bytes; null when the file is gone. */
    async read(fileName: string): Promise<Buffer | null> {
      const full = pathOf(fileName);
      if (!full) return null;
      return readFile(full).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
    },

    async remove(fileName: string | null): Promise<void> {
      const full = fileName ? pathOf(fileName) : null;
      if (full) await rm(full, { force: true });
    },
  };
}

export type DocumentFiles = ReturnType<typeof createDocumentFiles>;
