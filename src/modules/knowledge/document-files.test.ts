import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentFiles } from './document-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function filesIn(): { files: ReturnType<typeof createDocumentFiles>; incoming: () => string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'aos-files-'));
  dirs.push(dir);
  const incoming = path.join(dir, 'documents', '.incoming');
  return {
    files: createDocumentFiles(dir),
    incoming: () => (existsSync(incoming) ? readdirSync(incoming) : []),
  };
}

describe('document files: receiving an upload', () => {
  it('writes every byte to a temporary file and counts them', async () => {
    const { files } = filesIn();
    const received = await files.receive(Readable.from([Buffer.from('Plain '), Buffer.from('text.')]));
    expect(received.size).toBe(11);
    expect(readFileSync(received.tempPath, 'utf8')).toBe('Plain text.');
  });

  it('creates the temporary file before it reads a byte, so an upload cut at once leaves nothing behind', async () => {
    const { files, incoming } = filesIn();
    // A body cut in its first chunk: data and error arrive together. Had the file been opened lazily,
    // as a write stream does, its creation could still be queued when the failed upload removed it,
    // and would leave it behind afterwards.
    let createdBeforeFirstRead: boolean | null = null;
    const cut = new Readable({
      read() {
        createdBeforeFirstRead ??= incoming().length === 1;
        this.push(Buffer.from('Plain text'));
        this.destroy(new Error('cut'));
      },
    });
    await expect(files.receive(cut)).rejects.toThrow('cut');
    expect(createdBeforeFirstRead).toBe(true);
    expect(incoming()).toEqual([]);
  });
});
