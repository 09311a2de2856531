import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';

/** Avatar types, decided by the file's content (magic bytes), never by its name or header. */
const AVATAR_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** The extension for an accepted image, or null when the bytes are not PNG, JPEG or WebP. */
export async function detectAvatarExtension(bytes: Buffer): Promise<string | null> {
  const type = await fileTypeFromBuffer(bytes);
  return type ? (AVATAR_TYPES[type.mime] ?? null) : null;
}

export function createAvatarStorage(dataDir: string) {
  const dir = path.join(dataDir, 'avatars');
  return {
    dir,

    /** Writes `<userId>.<ext>` atomically (temp file, then rename) so a reader never sees half a file. */
    async save(userId: string, extension: string, bytes: Buffer): Promise<string> {
      await mkdir(dir, { recursive: true });
      const fileName = `${userId}.${extension}`;
      const temp = path.join(dir, `.${fileName}.${process.pid}.tmp`);
      await writeFile(temp, bytes);
      await rename(temp, path.join(dir, fileName));
      return fileName;
    },

    async remove(fileName: string | null): Promise<void> {
      if (!fileName || path.basename(fileName) !== fileName) return;
      await rm(path.join(dir, fileName), { force: true });
    },
  };
}

export type AvatarStorage = ReturnType<typeof createAvatarStorage>;
