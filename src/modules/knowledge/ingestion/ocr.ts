import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM } from 'tesseract.js';

/** Languages read by OCR, as tesseract codes. npm has trained data for these two (no Russian package). */
export const OCR_LANGUAGES = ['ukr', 'eng'] as const;

const require = createRequire(import.meta.url);

/** The `.gz` trained data shipped by `@tesseract.js-data/<lang>` (LSTM, integer model). */
function trainedDataFile(lang: string): string {
  const packageDir = path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
  return path.join(packageDir, '4.0.0_best_int', `${lang}.traineddata.gz`);
}

/**
 * tesseract.js reads every language from one `langPath` folder (7.0.0's
 * per-language object form is broken), while npm ships each language in its
 * own package: copy the files into one folder under DATA_DIR once.
 */
async function prepareLangFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const lang of OCR_LANGUAGES) {
    const source = trainedDataFile(lang);
    const target = path.join(dir, `${lang}.traineddata.gz`);
    const [from, to] = await Promise.all([stat(source), stat(target).catch(() => null)]);
    if (to?.size === from.size) continue;
    const temp = `${target}.${process.pid}.tmp`;
    await copyFile(source, temp);
    await rename(temp, target);
  }
}

export interface Ocr {
  /** The text of each image (PNG or JPEG bytes), in order. */
  recognize(images: readonly Buffer[]): Promise<string[]>;
}

/**
 * Offline OCR with tesseract.js: language data comes from the npm packages,
 * nothing is downloaded, and the decompressed data is not cached to disk
 * (each call starts one worker, reads its images and stops it, so no thread
 * outlives a job).
 */
export function createOcr(dataDir: string): Ocr {
  const langPath = path.join(dataDir, 'ocr', 'tessdata');
  let prepared: Promise<void> | null = null;
  return {
    async recognize(images) {
      if (images.length === 0) return [];
      prepared ??= prepareLangFolder(langPath).catch((error) => {
        prepared = null;
        throw error;
      });
      await prepared;
      const worker = await createWorker([...OCR_LANGUAGES], OEM.LSTM_ONLY, {
        langPath,
        gzip: true,
        cacheMethod: 'none',
      });
      try {
        const texts: string[] = [];
        for (const image of images) {
          const { data } = await worker.recognize(image);
          texts.push(data.text);
        }
        return texts;
      } finally {
        await worker.terminate();
      }
    },
  };
}
