import { imageSize } from 'image-size';
import { IngestionError } from './errors.js';

/**
 * The dimensions of a PNG, JPEG or WebP from its header, refused when width
 * × height is over `maxPixels`: decoders allocate the whole bitmap, so a
 * small file that declares a huge image is stopped before any is allocated.
 * @throws IngestionError naming DECODER_MAX_PIXELS, or for an unreadable header.
 */
export function checkImagePixels(
  bytes: Uint8Array,
  maxPixels: number,
  what = 'image',
): { width: number; height: number } {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch (error) {
    throw new IngestionError(`The ${what} cannot be read: ${(error as Error).message}`);
  }
  const width = size.width ?? 0;
  const height = size.height ?? 0;
  if (width <= 0 || height <= 0) throw new IngestionError(`The ${what} declares no dimensions`);
  if (width * height > maxPixels) {
    throw new IngestionError(
      `The ${what} is ${width} × ${height} pixels, more than ${maxPixels} (DECODER_MAX_PIXELS)`,
    );
  }
  return { width, height };
}
