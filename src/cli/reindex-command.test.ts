import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMBEDDER_VERSION } from '../core/llm/local-embedder.js';
import { runReindex } from './reindex-command.js';

const captured = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

describe('runReindex', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'aos-reindex-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => ({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'warn' });

  it('prints the usage for --help and exits 2 for an argument it does not take', async () => {
    const help = captured();
    expect(await runReindex(['--help'], env(), help.output)).toBe(0);
    expect(help.out.join('\n')).toContain('Usage: npm run reindex');
    const bad = captured();
    expect(await runReindex(['--all'], env(), bad.output)).toBe(2);
    expect(bad.err.join('\n')).toContain('Unknown argument --all');
  });

  it('brings the embedded database under DATA_DIR up to date, and again finds nothing to do', async () => {
    for (let run = 0; run < 2; run++) {
      const result = captured();
      expect(await runReindex([], env(), result.output)).toBe(0);
      expect(result.err).toEqual([]);
      expect(result.out[0]).toMatch(
        new RegExp(`^database: pglite .*; embedder: ${LOCAL_EMBEDDER_VERSION}:1536$`),
      );
      expect(result.out.at(-1)).toBe(
        'done: 0 chunks and 0 intent examples re-embedded, 0 chunks given keyword terms',
      );
    }
  }, 180_000);
});
