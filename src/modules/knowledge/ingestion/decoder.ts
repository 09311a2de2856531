import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../../core/config/config.js';
import { createIsolatedRunner, IsolatedTaskError } from '../../../core/isolation/isolated-runner.js';
import type { Block } from '../chunking.js';
import {
  type DecodeAnswer,
  type DecodedType,
  type DecodeTask,
  type Extraction,
  TYPE_NAMES,
} from './decode.js';
import { IngestionError } from './errors.js';

/** The decoder process's entry beside this file: .ts from the sources, .js once built. */
const ENTRY = new URL(`./decode.worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);

export interface Decoder {
  /** The text of a PDF, DOCX, PNG or JPEG file, read in a decoder process. */
  file(type: DecodedType, bytes: Buffer): Promise<Extraction>;
  /** The main text and title of a fetched HTML page, parsed in a decoder process. */
  htmlPage(html: string): Promise<{ title: string | null; blocks: Block[] }>;
}

/** Why a decoder process ended without an answer, as the document's or the message's reason. */
function reasonOf(error: IsolatedTaskError, what: string, limits: Config['decoders']): IngestionError {
  switch (error.failure) {
    case 'threw':
      // The decoders' own refusals already read as reasons; anything else a parser threw is about the file.
      return new IngestionError(
        error.causeName === 'IngestionError' ? error.message : `The ${what} cannot be read: ${error.message}`,
      );
    case 'out-of-memory':
      return new IngestionError(
        `The ${what} could not be read: its decoder ended at its memory limit of ${limits.memoryMb} MB (heap out of memory, DECODER_MEMORY_MB)`,
      );
    case 'timeout':
      return new IngestionError(
        `The ${what} could not be read: its decoder took longer than DECODER_TIMEOUT_MS (${limits.timeoutMs} ms)`,
      );
    case 'crashed':
    case 'exited':
      return new IngestionError(`The ${what} could not be read: ${error.message}`);
  }
}

/**
 * Decoding of untrusted files in isolated child processes (one per file,
 * under the heap ceiling and time limit of `limits`): a file that crashes
 * its parser (a native crash included), exhausts its heap, runs too long or
 * is over a cap fails with an IngestionError naming the cause, and the
 * service carries on.
 */
export function createDecoder(options: { dataDir: string; limits: Config['decoders'] }): Decoder {
  const { dataDir, limits } = options;
  const runner = createIsolatedRunner<DecodeTask, DecodeAnswer>({
    entry: ENTRY,
    memoryMb: limits.memoryMb,
    timeoutMs: limits.timeoutMs,
  });

  async function run(task: DecodeTask, what: string): Promise<DecodeAnswer> {
    try {
      return await runner.run(task);
    } catch (error) {
      if (error instanceof IsolatedTaskError) throw reasonOf(error, what, limits);
      throw error;
    }
  }

  const { maxInflatedBytes, maxPixels, maxPages } = limits;
  return {
    async file(type, bytes) {
      const task: DecodeTask = {
        kind: 'file',
        type,
        bytes,
        limits: { maxInflatedBytes, maxPixels, maxPages },
        dataDir,
      };
      return (await run(task, TYPE_NAMES[type])) as Extraction;
    },
    async htmlPage(html) {
      return (await run({ kind: 'html', html }, 'web page')) as { title: string | null; blocks: Block[] };
    },
  };
}
