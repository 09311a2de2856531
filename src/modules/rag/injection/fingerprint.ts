import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The SHA-256 of a detector's files: every file of `dir` but tests and
 * source maps, by name and content. Whatever changes the detector (a rule,
 * the model's weights, a threshold, the normalisation) changes it, so a
 * verdict recorded with one fingerprint is trusted only by that same code.
 */
export function fingerprintOf(dir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.test\.|\.map$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  for (const name of files) {
    hash.update(`${name}\0`);
    hash.update(readFileSync(path.join(dir, name)));
    hash.update('\0');
  }
  return hash.digest('base64url');
}

/**
 * This process's detector (the files of this folder, as built or as run
 * from source): what ingestion records on the chunks it scanned
 * (`chunks.scanned_by`), and what retrieval compares it with.
 */
export const DETECTOR_FINGERPRINT = fingerprintOf(path.dirname(fileURLToPath(import.meta.url)));
