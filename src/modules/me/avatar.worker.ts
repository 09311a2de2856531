// The avatar decoder process's entry, started by avatar-image.ts through the
// isolated runner: an uploaded image is decoded and drawn anew, so what is
// stored and served is only pixels this service encoded.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import { serveIsolatedTask } from '../../core/isolation/isolated-task.js';

/** Longest side of a stored avatar; a larger upload is scaled down. */
const AVATAR_MAX_SIDE = 512;

/** An image that cannot be an avatar; its message is the API's answer. */
class AvatarImageError extends Error {
  override name = 'AvatarImageError';
}

serveIsolatedTask<{ bytes: Uint8Array; maxPixels: number }, Uint8Array>(async ({ bytes, maxPixels }) => {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let declared: { width?: number; height?: number };
  try {
    declared = imageSize(file);
  } catch (error) {
    throw new AvatarImageError(`The avatar cannot be read as an image: ${(error as Error).message}`);
  }
  const width = declared.width ?? 0;
  const height = declared.height ?? 0;
  // The decoder allocates the whole bitmap: a header that declares a huge image is refused before.
  if (width * height > maxPixels) {
    throw new AvatarImageError(
      `The avatar is ${width} × ${height} pixels, more than ${maxPixels} (DECODER_MAX_PIXELS)`,
    );
  }
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(file);
  } catch (error) {
    throw new AvatarImageError(`The avatar cannot be read as an image: ${(error as Error).message}`);
  }
  if (!image.width || !image.height) throw new AvatarImageError('The avatar cannot be read as an image');
  const scale = Math.min(1, AVATAR_MAX_SIDE / Math.max(image.width, image.height));
  const canvas = createCanvas(
    Math.max(1, Math.round(image.width * scale)),
    Math.max(1, Math.round(image.height * scale)),
  );
  canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
  const png = await canvas.encode('png');
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
});
