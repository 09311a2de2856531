import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../core/db/client.js';
import { departments, namespaces } from '../core/db/schema/index.js';
import { UsageError } from './command-output.js';
import { parseSeedArgs, runSeedIntents } from './seed-intents-command.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE_FILE = path.join(ROOT, 'examples/intents.json');

describe('parseSeedArgs', () => {
  it('takes exactly one file, or --help', () => {
    expect(parseSeedArgs(['examples/intents.json'])).toEqual({ help: false, file: 'examples/intents.json' });
    expect(parseSeedArgs(['--help'])).toEqual({ help: true });
    expect(parseSeedArgs(['x.json', '-h'])).toEqual({ help: true });
  });

  it.each([
    [[], 'Name the seed file'],
    [['a.json', 'b.json'], 'Name one seed file, not 2'],
    [['--dry-run', 'a.json'], 'Unknown option --dry-run'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseSeedArgs(argv)).toThrow(UsageError);
    expect(() => parseSeedArgs(argv)).toThrow(message);
  });
});

/** The command's output, captured. */
const captured = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

describe('runSeedIntents', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'aos-seed-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const env = () => ({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'warn' });

  it('prints the usage for --help and exits 2 for a bad command line', async () => {
    const help = captured();
    expect(await runSeedIntents(['--help'], env(), help.output)).toBe(0);
    expect(help.out.join('\n')).toContain('npm run seed:intents -- <file.json>');
    const bad = captured();
    expect(await runSeedIntents([], env(), bad.output)).toBe(2);
    expect(bad.err.join('\n')).toContain('Name the seed file');
  });

  it('exits 1 with the reason for a missing file, a file that is not JSON, or a bad format', async () => {
    const missing = captured();
    expect(await runSeedIntents([path.join(dir, 'nope.json')], env(), missing.output)).toBe(1);
    expect(missing.err.join('\n')).toContain('No such file');
    const notJson = path.join(dir, 'broken.json');
    writeFileSync(notJson, '{ "namespace": ');
    const broken = captured();
    expect(await runSeedIntents([notJson], env(), broken.output)).toBe(1);
    expect(broken.err.join('\n')).toContain('not JSON');
    const wrong = path.join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ namespace: 'HR', intents: { greet: 'hello' } }));
    const invalid = captured();
    expect(await runSeedIntents([wrong], env(), invalid.output)).toBe(1);
    expect(invalid.err.join('\n')).toContain('.intents["greet"]: must be a list of phrases');
  });

  it('seeds the example file into the embedded database under DATA_DIR, then skips it all', async () => {
    // The namespace the file names, in the embedded database the command will open.
    const database = await openPglite({ dataDir: path.join(dir, 'pgdata') });
    await database.migrate();
    const [department] = await database.db.insert(departments).values({ name: 'HR', slug: 'hr' }).returning();
    await database.db.insert(namespaces).values({ name: 'HR assistant', departmentId: department!.id });
    await database.close();

    const first = captured();
    expect(await runSeedIntents([EXAMPLE_FILE], env(), first.output)).toBe(0);
    expect(first.err).toEqual([]);
    expect(first.out[0]).toMatch(/^database: pglite .*; embeddings: local$/);
    expect(first.out).toContain('  embedded and stored 32/84');
    expect(first.out).toContain('done: 84 phrases added, 0 already stored, 4 intents in 1 namespace(s)');
    expect(first.out.at(-1)).toBe('0 intent(s) have fewer than the 20 phrases advised');

    const second = captured();
    expect(await runSeedIntents([EXAMPLE_FILE], env(), second.output)).toBe(0);
    expect(second.out).toContain('done: 0 phrases added, 84 already stored, 4 intents in 1 namespace(s)');
  }, 180_000);

  it('runs as the npm script’s entry file', async () => {
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      [path.join(ROOT, 'src/cli/seed-intents.ts'), '--help'],
      { cwd: ROOT },
    );
    expect(stdout).toContain('Usage: npm run seed:intents');
  }, 60_000);
});
