import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { testDatabaseUrl } from '../../test/database.js';
import { entryArgs } from '../../test/faults/service-process.js';
import { adminQuery, withDatabase } from '../../test/global-setup.js';
import { verifyPassword } from '../core/auth/passwords.js';
import { type DatabaseHandle, openDatabase } from '../core/db/client.js';
import { departments, users } from '../core/db/schema/index.js';
import { parseCreateAdminArgs, runCreateAdmin } from './create-admin-command.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'first-admin-42';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const scratchDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'aos-create-admin-'));
  dirs.push(dir);
  return dir;
};
const embeddedEnv = (dataDir: string) => ({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
const embeddedConfig = (dataDir: string) => ({
  databaseUrl: null,
  databasePreparedStatements: true,
  databasePoolSize: 1,
  dataDir,
});

const captured = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};
const stdin = (text: string) => () => Promise.resolve(text);

/** The administrator the command left in the database, with their department's name. */
async function storedAdmin(database: DatabaseHandle, email: string) {
  const [row] = await database.db
    .select({ user: users, department: departments.name })
    .from(users)
    .innerJoin(departments, eq(departments.id, users.departmentId))
    .where(eq(users.email, email));
  return row ?? null;
}

describe('create-admin arguments', () => {
  it('reads --email, --name and --password-stdin in any order, and refuses what it does not take', () => {
    expect(parseCreateAdminArgs(['--password-stdin', '--email', 'a@b.example', '--name=Olena K'])).toEqual({
      help: false,
      email: 'a@b.example',
      name: 'Olena K',
    });
    expect(parseCreateAdminArgs(['--email=a@b.example', '--password-stdin'])).toMatchObject({
      name: 'Administrator',
    });
    expect(parseCreateAdminArgs(['-h'])).toEqual({ help: true });
    expect(() => parseCreateAdminArgs(['--email', 'a@b.example'])).toThrow(/--password-stdin/);
    expect(() => parseCreateAdminArgs(['--password-stdin'])).toThrow(/--email/);
    expect(() => parseCreateAdminArgs(['--email', 'nobody', '--password-stdin'])).toThrow(/not an email/);
    expect(() => parseCreateAdminArgs(['--email', '--password-stdin'])).toThrow(/needs a value/);
    expect(() => parseCreateAdminArgs(['--password', 'x'])).toThrow(/Unknown argument --password/);
  });
});

describe('create-admin on the embedded database', () => {
  it('exits 2 with the usage for bad arguments and with the rule for a weak password, touching nothing', async () => {
    const dataDir = scratchDir();
    const bad = captured();
    expect(
      await runCreateAdmin(['--email', 'x@y.example'], embeddedEnv(dataDir), stdin(''), bad.output),
    ).toBe(2);
    expect(bad.err.join('\n')).toContain('Usage: node dist/main.js create-admin');
    const weak = captured();
    const args = ['--email', 'x@y.example', '--password-stdin'];
    expect(await runCreateAdmin(args, embeddedEnv(dataDir), stdin('password\n'), weak.output)).toBe(2);
    expect(weak.err.join('\n')).toContain('at least one letter and one digit');
  });

  it('creates an administrator on a new DATA_DIR, refuses a taken email, and refuses a database a service holds', async () => {
    const dataDir = scratchDir();
    const first = captured();
    const args = ['--email', 'owner@example.test', '--password-stdin', '--name', 'Olena Owner'];
    expect(await runCreateAdmin(args, embeddedEnv(dataDir), stdin(`${PASSWORD}\n`), first.output)).toBe(0);
    expect(first.err).toEqual([]);
    expect(first.out.join('\n')).toContain('administrator owner@example.test created in General');

    const taken = captured();
    expect(await runCreateAdmin(args, embeddedEnv(dataDir), stdin(`${PASSWORD}\n`), taken.output)).toBe(1);
    expect(taken.err.join('\n')).toContain('owner@example.test is already registered');

    // The "service": the embedded database opened as container.ts opens it.
    const service = await openDatabase(embeddedConfig(dataDir));
    try {
      const held = captured();
      const other = ['--email', 'second@example.test', '--password-stdin'];
      expect(await runCreateAdmin(other, embeddedEnv(dataDir), stdin(`${PASSWORD}\n`), held.output)).toBe(1);
      expect(held.err.join('\n')).toContain(`is in use by process ${process.pid}`);
      expect(held.err.join('\n')).toContain("the console's setup page");
      const stored = await storedAdmin(service, 'owner@example.test');
      expect(stored).toMatchObject({ user: { role: 'admin', name: 'Olena Owner' }, department: 'General' });
      expect(await verifyPassword(stored!.user.passwordHash, PASSWORD)).toBe(true);
      expect(await storedAdmin(service, 'second@example.test')).toBeNull();
    } finally {
      await service.close();
    }
  }, 180_000);

  it('runs as `node dist/main.js create-admin` would, the password piped in', async () => {
    const dataDir = scratchDir();
    const child = spawn(
      process.execPath,
      [
        // dist/main.js when the build is current (as in CI), else the sources through tsx.
        ...entryArgs(),
        'create-admin',
        '--email',
        'cli@example.test',
        '--password-stdin',
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...embeddedEnv(dataDir) },
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdin.end(`${PASSWORD}\n`);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toContain('administrator cli@example.test created');
    const database = await openDatabase(embeddedConfig(dataDir));
    try {
      expect((await storedAdmin(database, 'cli@example.test'))?.user.role).toBe('admin');
    } finally {
      await database.close();
    }
  }, 180_000);
});

describe.skipIf(!testDatabaseUrl())('create-admin on PostgreSQL', () => {
  it('creates an administrator in the database DATABASE_URL names, while other connections stay open', async () => {
    const templateUrl = testDatabaseUrl()!;
    const name = `aos_${inject('runId')}_ca_${randomBytes(4).toString('hex')}`;
    await adminQuery(
      templateUrl,
      `CREATE DATABASE "${name}" TEMPLATE "${new URL(templateUrl).pathname.slice(1)}"`,
    );
    const url = withDatabase(templateUrl, name);
    // A running service's connection pool: PostgreSQL has many users at a time.
    const service = await openDatabase({ ...embeddedConfig(scratchDir()), databaseUrl: url });
    try {
      const result = captured();
      const env = { NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: scratchDir(), LOG_LEVEL: 'warn' };
      const args = ['--email', 'pg-admin@example.test', '--password-stdin'];
      expect(await runCreateAdmin(args, env, stdin(PASSWORD), result.output)).toBe(0);
      expect(result.out.join('\n')).toContain('(database: postgres,');
      expect((await storedAdmin(service, 'pg-admin@example.test'))?.user.role).toBe('admin');
    } finally {
      await service.close();
      await adminQuery(templateUrl, `DROP DATABASE IF EXISTS "${name}"`);
    }
  });
});
