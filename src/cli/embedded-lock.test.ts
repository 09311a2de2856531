import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../core/db/client.js';
import { departments } from '../core/db/schema/index.js';
import { runReindex } from './reindex-command.js';
import { runSeedIntents } from './seed-intents-command.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-cli-lock-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const config = {
  databaseUrl: null,
  databasePreparedStatements: true,
  databasePoolSize: 1,
  dataDir,
};
const env = { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };

const captured = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

describe('commands against an embedded database a running service holds', () => {
  it('seed:intents and reindex exit non-zero with what to do, and the service data stays intact', async () => {
    // The "service": the embedded database opened as container.ts opens it, with a committed row.
    const service = await openDatabase(config);
    await service.migrate();
    await service.db.insert(departments).values({ name: 'Kept', slug: 'kept' });
    const seedFile = path.join(dataDir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify({ namespace: 'Kept', intents: { greet: ['hello there'] } }));

    const seed = captured();
    expect(await runSeedIntents([seedFile], env, seed.output)).toBe(1);
    const reindex = captured();
    expect(await runReindex([], env, reindex.output)).toBe(1);
    // The command in a process of its own, as `npm run seed:intents` runs it.
    const child = await promisify(execFile)(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      [path.join(ROOT, 'src/cli/seed-intents.ts'), seedFile],
      { cwd: ROOT, env: { ...process.env, ...env, DATABASE_URL: '' } },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(child.code).toBe(1);
    for (const message of [seed.err.join('\n'), reindex.err.join('\n'), child.stderr]) {
      expect(message).toContain(`is in use by process ${process.pid}`);
      expect(message).toContain('Stop that process first');
    }

    // The service still works on its data, and the data survives its restart.
    await service.db.insert(departments).values({ name: 'After', slug: 'after' });
    await service.close();
    const reopened = await openDatabase(config);
    try {
      const rows = await reopened.db.select().from(departments).where(eq(departments.slug, 'kept'));
      expect(rows).toHaveLength(1);
      expect(await reopened.db.select().from(departments).where(eq(departments.slug, 'after'))).toHaveLength(
        1,
      );
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
