import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  AppError,
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../errors/app-errors.js';
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from './unsafe-text.js';

/** The file part of a form, once its bytes are consumed into `content` (a buffer, a temporary file…). */
export interface ReceivedFile<T> {
  fieldName: string;
  fileName: string;
  mimeType: string;
  /** Bytes received, counted here (never more than the limit: a larger file is refused). */
  size: number;
  content: T;
}

export interface MultipartForm<T> {
  /** Text fields by name; a repeated name keeps its last value. */
  fields: Record<string, string>;
  /** The accepted file part, or null when the form had none. */
  file: ReceivedFile<T> | null;
}

export interface ReadMultipartOptions<T> {
  /** Largest accepted file in bytes; one byte more answers 413. */
  maxBytes: number;
  /** The 413 message, written for the API user. */
  tooLargeMessage: string;
  /** The file part's field name; any name when omitted. Other file parts are skipped. */
  fileField?: string;
  /** Consumes the whole stream (into memory, to disk) and answers what was kept. */
  store(stream: Readable): Promise<T>;
  /** Undoes `store` when the form is refused after the file was read. */
  discard?(content: T): Promise<void>;
}

/** A `boundary` parameter with a non-empty value, maybe quoted. */
const BOUNDARY = /;\s*boundary\s*=\s*(?:"[^"]+"|[^";\s]+)/i;

/** Parser limits raised by @fastify/multipart, answered as 413. */
const LIMIT_MESSAGES: Record<string, string> = {
  FST_PARTS_LIMIT: 'The form has too many parts',
  FST_FILES_LIMIT: 'The form may carry only one file',
  FST_FIELDS_LIMIT: 'The form has too many fields',
  FST_REQ_FILE_TOO_LARGE: 'The file is too large',
};

/**
 * The AppError a failure while parsing the form stands for. Busboy's own
 * errors carry no code (no boundary, a body that ends mid-part, a malformed
 * header), so anything that is not a system error (disk, EACCES…) or already
 * an AppError is the client's malformed body: 400, never 500.
 */
export function multipartError(error: unknown): Error {
  if (error instanceof AppError) return error;
  const { code, syscall, message } = (error ?? {}) as { code?: string; syscall?: string; message?: string };
  if (syscall) return error as Error;
  if (code && LIMIT_MESSAGES[code]) return new PayloadTooLargeError(LIMIT_MESSAGES[code]);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new UnsupportedMediaTypeError('The request is not multipart/form-data');
  }
  const text = String(message ?? '');
  if (/boundary|needle/i.test(text)) {
    return new BadRequestError('The multipart Content-Type header has no usable boundary');
  }
  if (/unexpected end|terminated early|closed before/i.test(text)) {
    return new BadRequestError('The multipart body ends before the form is complete');
  }
  return new BadRequestError('The multipart body cannot be parsed');
}

/** The multipart file stream as @fastify/busboy hands it over. */
type PartStream = Readable & { truncated?: boolean };

/**
 * Reads a whole multipart/form-data request: text fields, and one file
 * handed to `store`. The form counts only once its closing boundary has been
 * parsed, so a body cut anywhere is refused after `discard` undid the store.
 *
 * The size check does not rely on @fastify/multipart's `toBuffer()` throwing
 * (that races: when a chunk ends exactly at the limit the stream just ends,
 * truncated); it counts the bytes and reads busboy's `truncated` flag after
 * the file ended, so every over-limit file is refused.
 *
 * @throws PayloadTooLargeError for a file over `maxBytes`, a second file, too many parts or fields.
 * @throws BadRequestError for a body without boundary, cut short or malformed.
 * @throws UnsupportedMediaTypeError for a request that is not multipart.
 */
export async function readMultipartForm<T>(
  request: FastifyRequest,
  options: ReadMultipartOptions<T>,
): Promise<MultipartForm<T>> {
  if (!request.isMultipart()) throw new UnsupportedMediaTypeError('The request is not multipart/form-data');
  // Checked here because busboy reads an empty `boundary=` as a form with no parts.
  if (!BOUNDARY.test(request.headers['content-type'] ?? '')) {
    throw new BadRequestError('The multipart Content-Type header has no usable boundary');
  }
  const fields: Record<string, string> = {};
  let file: ReceivedFile<T> | null = null;
  // The size check is ours (below), so the plugin must not raise its own racy error too.
  const parseOptions = { limits: { fileSize: options.maxBytes, files: 1 }, throwFileSizeLimit: false };
  const parts = request.parts(parseOptions)[Symbol.asyncIterator]();
  try {
    while (true) {
      let next: Awaited<ReturnType<typeof parts.next>>;
      try {
        next = await parts.next();
      } catch (error) {
        throw multipartError(error);
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (file || (options.fileField !== undefined && part.fieldname !== options.fileField)) {
        await drain(part.file);
        continue;
      }
      const stream: PartStream = part.file;
      const counter = { size: 0 };
      const content = await options.store(Readable.from(counted(stream, counter), { objectMode: false }));
      file = {
        fieldName: part.fieldname,
        fileName: part.filename ?? '',
        mimeType: part.mimetype,
        size: counter.size,
        content,
      };
      // `truncated` is set before the stream ends, so reading it after the end is race-free.
      if (stream.truncated || counter.size > options.maxBytes) {
        throw new PayloadTooLargeError(options.tooLargeMessage);
      }
    }
    // The JSON routes refuse such text in validation; form fields never pass through it.
    const unsafe = findUnsafeText({ ...fields, ...(file ? { filename: file.fileName } : {}) }, 'body');
    if (unsafe.length > 0) {
      throw new ValidationError(unsafe.map((field) => ({ field, message: UNSAFE_TEXT_MESSAGE })));
    }
  } catch (error) {
    if (file && options.discard) await options.discard(file.content);
    await parts.return?.(undefined);
    throw error;
  }
  return { fields, file };
}

/** The file's chunks, counted; a parse error on the stream becomes the client's 400. */
async function* counted(stream: PartStream, counter: { size: number }): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) {
      counter.size += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  } catch (error) {
    throw multipartError(error);
  }
}

/** Reads a part nobody wants to its end, so parsing can go on to the next. */
async function drain(stream: Readable): Promise<void> {
  try {
    for await (const _chunk of stream);
  } catch (error) {
    throw multipartError(error);
  }
}

/** `store` for small files: the bytes in memory. */
export async function bufferStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What the audit entry says about a form: its text fields and the file's metadata, never its bytes. */
export function describeForm(form: MultipartForm<unknown>): Record<string, unknown> {
  return {
    fields: form.fields,
    file: form.file
      ? {
          fieldname: form.file.fieldName,
          filename: form.file.fileName,
          mimetype: form.file.mimeType,
          size: form.file.size,
        }
      : null,
  };
}
