import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../core/db/client.js';
import { runReprocess } from './reprocess-command.js';

const captured = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

describe('runReprocess', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'aos-reprocess-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => ({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'warn' });

  it('prints the usage for --help, and exits 2 without --all or with an argument it does not take', async () => {
    const help = captured();
    expect(await runReprocess(['--help'], env(), help.output)).toBe(0);
    expect(help.out.join('\n')).toContain('Usage: npm run reprocess -- --all');
    const none = captured();
    expect(await runReprocess([], env(), none.output)).toBe(2);
    expect(none.err.join('\n')).toContain('Say --all');
    const bad = captured();
    expect(await runReprocess(['--all', '--fast'], env(), bad.output)).toBe(2);
    expect(bad.err.join('\n')).toContain('Unknown argument --fast');
  });

  it('re-chunks the documents of the embedded database under DATA_DIR (none yet)', async () => {
    const result = captured();
    expect(await runReprocess(['--all'], env(), result.output)).toBe(0);
    expect(result.err).toEqual([]);
    expect(result.out[0]).toMatch(/^database: pglite .*; embedder: /);
    expect(result.out.slice(1)).toEqual([
      '0 documents to re-chunk',
      'done: 0 re-chunked, 0 failed, 0 skipped',
    ]);
  }, 180_000);

  it('refuses an embedded database a running process holds, and leaves it working', async () => {
    const service = await openDatabase({
      databaseUrl: null,
      databasePreparedStatements: true,
      databasePoolSize: 1,
      dataDir: dir,
    });
    try {
      const result = captured();
      expect(await runReprocess(['--all'], env(), result.output)).toBe(1);
      expect(result.err.join('\n')).toContain(`is in use by process ${process.pid}`);
      expect(result.err.join('\n')).toContain('Stop that process first');
      await service.db.execute('SELECT 1');
    } finally {
      await service.close();
    }
  }, 180_000);
});
