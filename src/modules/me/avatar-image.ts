import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../core/config/config.js';
import { ValidationError } from '../../core/errors/app-errors.js';
import { createIsolatedRunner, IsolatedTaskError } from '../../core/isolation/isolated-runner.js';

/** The avatar decoder process's entry beside this file: .ts from the sources, .js once built. */
const ENTRY = new URL(`./avatar.worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);

const unreadable = (message: string) => new ValidationError([{ field: 'body.file', message }], message);

/**
 * Re-encodes uploaded avatars as PNG in an isolated decoder process (the heap
 * ceiling, time limit and pixel cap of config.decoders), so a file carrying
 * anything besides its pixels (a script appended, a polyglot) is never
 * served, and a hostile image fails only its own upload.
 */
export function createAvatarImages(limits: Config['decoders']) {
  const runner = createIsolatedRunner<{ bytes: Uint8Array; maxPixels: number }, Uint8Array>({
    entry: ENTRY,
    memoryMb: limits.memoryMb,
    timeoutMs: limits.timeoutMs,
  });
  return {
    /**
     * The image drawn anew as a PNG, at most 512 pixels on its longest side.
     * @throws ValidationError (422) when the image cannot be decoded or is over DECODER_MAX_PIXELS.
     */
    async reencode(bytes: Buffer): Promise<Buffer> {
      try {
        const png = await runner.run({ bytes, maxPixels: limits.maxPixels });
        return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
      } catch (error) {
        if (!(error instanceof IsolatedTaskError)) throw error;
        if (error.causeName === 'AvatarImageError') throw unreadable(error.message);
        throw unreadable(`The avatar cannot be read as an image: ${error.message}`);
      }
    },
  };
}

export type AvatarImages = ReturnType<typeof createAvatarImages>;
