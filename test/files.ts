import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';

/** CRC-32 as PNG chunks need it. */
function crc32(buffer: Buffer): number {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return header;
}

/** A valid 1×1 white PNG. */
export function tinyPng(): Buffer {
  const header = pngHeader(1, 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 255, 255]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The 1×1 PNG with one byte of its IDAT checksum flipped (69 bytes): libpng
 * refuses it, and tesseract.js reports that from a thread callback nothing handles.
 */
export function corruptPng(): Buffer {
  const png = tinyPng();
  const at = png.indexOf('IDAT');
  const crcAt = at + 4 + png.readUInt32BE(at - 4);
  png[crcAt]! ^= 0xff;
  return png;
}

/** A small PNG whose header declares `width` × `height` pixels (its one row of data cannot fill them). */
export function pngDeclaring(width: number, height: number): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', pngHeader(width, height)),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1 + width * 3))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid PNG padded with trailing bytes to exactly `size` bytes (image decoders ignore what follows IEND). */
export function paddedPng(size: number): Buffer {
  const png = tinyPng();
  return Buffer.concat([png, Buffer.alloc(Math.max(0, size - png.length))]);
}

/** The start of a JPEG (SOI + JFIF APP0), enough for content sniffing. */
export function tinyJpeg(): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'ascii'),
    Buffer.from([0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
  ]);
}

type Part = string | { filename: string; content: Buffer; contentType?: string };

/** A multipart/form-data body as a browser would send it. */
export function multipartBody(parts: Record<string, Part>): { body: Buffer; contentType: string } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${part}\r\n`),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The body up to `offset` bytes past the first occurrence of `marker`: a
 * multipart request cut short, as a client that dropped mid-request leaves it.
 */
export function cutBody(body: Buffer, marker: string, offset = 0): Buffer {
  const at = body.indexOf(marker);
  if (at < 0) throw new Error(`marker ${marker} is not in the body`);
  return body.subarray(0, at + offset);
}

/**
 * The body as a stream that delivers it in pieces cut at the given offsets,
 * each in its own turn of the event loop, so the server sees exactly these
 * chunk boundaries (as it would from a network).
 */
export function chunked(body: Buffer, cuts: number[]): Readable {
  const edges = [0, ...cuts, body.length];
  return Readable.from(
    (async function* () {
      for (let i = 0; i + 1 < edges.length; i++) {
        if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        yield body.subarray(edges[i], edges[i + 1]);
      }
    })(),
    { objectMode: false },
  );
}

/** A real `width` × `height` image of one colour, encoded by @napi-rs/canvas. */
export async function solidImage(format: 'png' | 'jpeg' | 'webp', width = 8, height = 8): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#3366cc';
  context.fillRect(0, 0, width, height);
  return format === 'png' ? canvas.encode('png') : canvas.encode(format, 90);
}

/** The PNG magic bytes. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
