import type { FileDocumentType } from '../../modules/knowledge/document-files.js';

/** The file formats whose text is read, by the MIME type the platform reports. */
const TYPE_BY_MIME: Record<string, FileDocumentType> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/** The file type read for a MIME type, or null when its text is not read (WebP, spreadsheets…). */
export function readableTypeOf(mimeType: string | null): FileDocumentType | null {
  const bare = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  return TYPE_BY_MIME[bare] ?? null;
}

/**
 * A media item that cannot be fetched or read. `transient` says whether a
 * later try may succeed (a 5xx or 429 of the platform, a network error).
 */
export class MediaError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface MediaReaderDeps {
  /** CHANA_API_BASE_URL, with its version segment. */
  apiBaseUrl: string;
  /** The current access token (the stored, refreshed one), or null when there is none. */
  accessToken(): Promise<string | null>;
  /** The text of a file's bytes, as knowledge ingestion reads uploads. */
  readText(type: FileDocumentType, bytes: Buffer): Promise<string>;
  /** Largest file downloaded, in bytes. */
  maxBytes: number;
  /** Per request to the platform, in milliseconds (default 30 s). */
  timeoutMs?: number;
}

/** What was read from one media item. */
export interface MediaText {
  mimeType: string;
  type: FileDocumentType;
  text: string;
}

const transientStatus = (status: number) => status === 429 || status >= 500;

async function readLimited(response: Response, maxBytes: number, mediaId: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw new MediaError(`media ${mediaId} is over ${maxBytes} bytes`, false);
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.length;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new MediaError(`media ${mediaId} is over ${maxBytes} bytes`, false);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * Channel A media (the Graph protocol): `GET /{media-id}` with the bearer
 * token answers a short-lived download URL, which is fetched with the same
 * token, size-limited; the bytes are read by the ingestion extractors (OCR
 * for images, the PDF and DOCX readers for documents). Nothing is stored.
 */
export function createMediaReader(deps: MediaReaderDeps) {
  const { apiBaseUrl, maxBytes } = deps;
  const timeoutMs = deps.timeoutMs ?? 30_000;

  async function call(url: string, token: string, what: string): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${token}` },
        redirect: 'follow',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new MediaError(`${what}: ${(error as Error).message}`, true);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new MediaError(
        `${what}: the platform answered ${response.status}`,
        transientStatus(response.status),
      );
    }
    return response;
  }

  return {
    /**
     * Downloads a media item and reads its text. `mimeType` is the type the
     * webhook announced; the platform's own answer wins when it gives one.
     * @throws MediaError when the item cannot be fetched, is too large, or
     *   is of a type whose text is not read; IngestionError when the file
     *   cannot be read.
     */
    async readMedia(mediaId: string, mimeType: string | null): Promise<MediaText> {
      const token = await deps.accessToken();
      if (!token) throw new MediaError('no channel A access token is configured', false);
      const infoResponse = await call(
        `${apiBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(mediaId)}`,
        token,
        `media ${mediaId}`,
      );
      const info = (await infoResponse.json().catch(() => ({}))) as Record<string, unknown>;
      const url = typeof info.url === 'string' ? info.url : null;
      if (!url || !/^https?:\/\//.test(url)) throw new MediaError(`media ${mediaId}: no download URL`, false);
      const mime = typeof info.mime_type === 'string' ? info.mime_type : mimeType;
      const type = readableTypeOf(mime);
      if (!type) throw new MediaError(`media ${mediaId}: ${mime ?? 'an unknown type'} is not read`, false);
      if (typeof info.file_size === 'number' && info.file_size > maxBytes) {
        throw new MediaError(`media ${mediaId} is over ${maxBytes} bytes`, false);
      }
      const download = await call(url, token, `media ${mediaId} download`);
      const bytes = await readLimited(download, maxBytes, mediaId);
      const text = (await deps.readText(type, bytes)).trim();
      return { mimeType: mime ?? 'application/octet-stream', type, text };
    },
  };
}

export type MediaReader = ReturnType<typeof createMediaReader>;
