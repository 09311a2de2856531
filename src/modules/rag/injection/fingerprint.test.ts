import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DETECTOR_FINGERPRINT, fingerprintOf } from './fingerprint.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'detector-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

describe('detector fingerprint', () => {
  it('is the same for the same files and changes with any file of the detector', () => {
    const files = { 'rules.ts': 'const a = 1;', 'model-weights.json': '{"w":[1,2]}' };
    const print = fingerprintOf(folder(files));
    expect(fingerprintOf(folder(files))).toBe(print);
    expect(fingerprintOf(folder({ ...files, 'rules.ts': 'const a = 2;' }))).not.toBe(print);
    expect(fingerprintOf(folder({ ...files, 'model-weights.json': '{"w":[1,3]}' }))).not.toBe(print);
    expect(fingerprintOf(folder({ ...files, 'typos.ts': '' }))).not.toBe(print);
    // The same bytes under another name are another detector.
    expect(
      fingerprintOf(folder({ 'rules2.ts': 'const a = 1;', 'model-weights.json': '{"w":[1,2]}' })),
    ).not.toBe(print);
  });

  it('leaves tests and source maps out', () => {
    const files = { 'rules.ts': 'const a = 1;' };
    const print = fingerprintOf(folder(files));
    expect(fingerprintOf(folder({ ...files, 'rules.test.ts': 'it()', 'rules.js.map': '{}' }))).toBe(print);
  });

  it('fingerprints this process’s detector', () => {
    expect(DETECTOR_FINGERPRINT).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
