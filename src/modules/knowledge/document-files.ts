import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
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

/**
 * True when the whole file decodes as UTF-8 and has no NUL byte (UTF-16 and
 * binary files have them; text files do not). Read in chunks, so a large
 * upload is never held in memory.
 */
async function isUtf8TextFile(filePath: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(filePath)) {
      const bytes = chunk as Buffer;
      if (bytes.includes(0)) return false;
      decoder.decode(bytes, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/**
 * The document type of an uploaded file. The accepted binary formats (PDF,
 * DOCX, PNG, JPEG) are recognised by their magic bytes whatever the name.
 * Otherwise a file named as text (`.txt`, `.md`…) whose bytes are valid
 * UTF-8 is text, even when its first bytes happen to look like a signature
 * of some other format ("BM…" is a BMP header, "xxxxfree" a QuickTime one):
 * only the signatures of formats we accept win over the text rule. Null for
 * anything else, a text file under a binary name included.
 */
export async function detectFileType(filePath: string, fileName: string): Promise<FileDocumentType | null> {
  const sniffed = await fileTypeFromFile(filePath);
  const binary = sniffed ? BINARY_TYPES[sniffed.mime] : undefined;
  if (binary) return binary;
  const textType = TEXT_EXTENSIONS[path.extname(fileName).toLowerCase()];
  if (!textType) return null;
  return (await isUtf8TextFile(filePath)) ? textType : null;
}

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
     * Streams an upload to a temporary file and answers its path and size;
     * the temp file is removed when the stream fails. Size limits are the caller's.
     */
    async receive(stream: Readable): Promise<{ tempPath: string; size: number }> {
      await mkdir(incoming, { recursive: true });
      const tempPath = path.join(incoming, `${randomUUID()}.part`);
      // The file is created before the copy starts. Left to createWriteStream, its open could still be
      // pending when a failed copy removes the file, and would create it again after the removal.
      const handle = await open(tempPath, 'wx');
      // Counting starts with the copy, in the same tick: a 'data' listener sets the stream flowing.
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      try {
        await pipeline(stream, handle.createWriteStream());
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(tempPath, { force: true });
        throw error;
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
