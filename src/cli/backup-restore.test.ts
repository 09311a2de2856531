import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, withDatabase } from '../../test/global-setup.js';
import { buildApp } from '../app.js';
import { type Container, createContainer } from '../container.js';
import { loadConfig } from '../core/config/config.js';
import { openPglite, openPostgres } from '../core/db/client.js';
import { departments } from '../core/db/schema/index.js';
import { runBackup } from './backup-command.js';
import { runRestore } from './restore-command.js';

const root = mkdtempSync(path.join(tmpdir(), 'aos-backup-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const logger = pino({ level: 'silent' });
const ADMIN = { email: 'backup-admin@example.com', password: 'backup-pass-1' };

const captured = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

/** An embedded service as `npm start` runs it, on its own DATA_DIR (migrated from the run's dump when there is one). */
async function startEmbedded(
  dataDir: string,
): Promise<{ app: FastifyInstance; container: Container; port: number }> {
  const dump = inject('pgliteDumpPath');
  if (dump && !existsSync(path.join(dataDir, 'pgdata'))) {
    const seeded = await openPglite({
      dataDir: path.join(dataDir, 'pgdata'),
      loadDataDir: new Blob([readFileSync(dump)]),
    });
    await seeded.close();
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const container = await createContainer(config, { logger });
  const app = await buildApp(container);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, container, port: typeof address === 'object' && address ? address.port : 0 };
}

async function login(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: ADMIN });
  return res.json().token as string;
}

describe('backup and restore, embedded', () => {
  it('a backup taken while the service writes restores into a fresh DATA_DIR with every row committed before it', async () => {
    const dataDir = path.join(root, 'live');
    const service = await startEmbedded(dataDir);
    const token = await login(service.app);
    const auth = { authorization: `Bearer ${token}` };
    const createDepartment = async (name: string) => {
      const res = await service.app.inject({
        method: 'POST',
        url: '/api/v1/departments',
        headers: auth,
        payload: { name },
      });
      expect(res.statusCode).toBe(201);
      return res.json().id as string;
    };
    const before: string[] = [];
    for (let i = 0; i < 5; i++) before.push(await createDepartment(`Before ${i}`));
    const secret = readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8');

    // Writes go on while the backup is taken, through the running service.
    let writing = true;
    const during: string[] = [];
    const writer = (async () => {
      for (let i = 0; writing && i < 500; i++) during.push(await createDepartment(`During ${i}`));
    })();
    const file = path.join(root, 'live.tar');
    const env = { NODE_ENV: 'test', DATA_DIR: dataDir, BACKUP_TOKEN: token };
    const backup = captured();
    const code = await runBackup([file, '--from', `http://127.0.0.1:${service.port}`], env, backup.output);
    writing = false;
    await writer;
    expect(backup.err).toEqual([]);
    expect(code).toBe(0);
    expect(backup.out.join('\n')).toContain('written by the running service');
    await service.app.close();
    await service.container.close();

    const restoredDir = path.join(root, 'restored');
    const restore = captured();
    expect(await runRestore([file], { DATA_DIR: restoredDir }, restore.output)).toBe(0);
    expect(readFileSync(path.join(restoredDir, 'jwt-secret'), 'utf8')).toBe(secret);

    const restored = await startEmbedded(restoredDir);
    try {
      const rows = await restored.container.db
        .select({ id: departments.id })
        .from(departments)
        .where(inArray(departments.id, before));
      expect(rows).toHaveLength(before.length);
      // The old token still works: the restored service signs with the backed-up secret.
      const me = await restored.app.inject({ url: '/api/v1/me', headers: auth });
      expect(me.statusCode).toBe(200);
    } finally {
      await restored.app.close();
      await restored.container.close();
    }
  }, 180_000);

  it('refuses what would mix or lose data, with the reason', async () => {
    const dataDir = path.join(root, 'refusals');
    const service = await startEmbedded(dataDir);
    try {
      const noToken = captured();
      expect(
        await runBackup([path.join(root, 'x.tar')], { NODE_ENV: 'test', DATA_DIR: dataDir }, noToken.output),
      ).toBe(1);
      expect(noToken.err.join('\n')).toContain('set BACKUP_TOKEN');
      const existing = path.join(root, 'exists.tar');
      writeFileSync(existing, 'x');
      const overwrite = captured();
      expect(await runBackup([existing], { DATA_DIR: dataDir }, overwrite.output)).toBe(1);
      expect(overwrite.err.join('\n')).toContain('already exists');
      const notEmpty = captured();
      expect(await runRestore([existing], { DATA_DIR: dataDir }, notEmpty.output)).toBe(1);
      expect(notEmpty.err.join('\n')).toContain('is not empty');
      const notBackup = captured();
      expect(await runRestore([existing], { DATA_DIR: path.join(root, 'empty') }, notBackup.output)).toBe(1);
      expect(notBackup.err.join('\n')).toContain('is not a readable backup archive');
    } finally {
      await service.app.close();
      await service.container.close();
    }
  }, 120_000);
});

const hasPgDump = (() => {
  try {
    execFileSync('pg_dump', ['--version']);
    return true;
  } catch {
    return false;
  }
})();
const templateUrl = inject('pgTemplateUrl');

describe.runIf(templateUrl !== null && hasPgDump)('backup and restore, PostgreSQL', () => {
  it('pg_dump and pg_restore carry the rows, the vector extension and the files into an empty database', async () => {
    const template = new URL(templateUrl!).pathname.slice(1);
    const source = `aos_${inject('runId')}_bk_src`;
    const target = `aos_${inject('runId')}_bk_dst`;
    await adminQuery(templateUrl!, `CREATE DATABASE "${source}" TEMPLATE "${template}"`);
    await adminQuery(templateUrl!, `CREATE DATABASE "${target}"`);
    const sourceUrl = withDatabase(templateUrl!, source);
    const targetUrl = withDatabase(templateUrl!, target);
    const db = openPostgres(sourceUrl, 1);
    await db.db.insert(departments).values({ name: 'Kept in PostgreSQL', slug: 'kept-pg' });
    await db.close();

    const dataDir = path.join(root, 'pg-files');
    const file = path.join(root, 'pg.tar');
    const backup = captured();
    const env = { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: sourceUrl };
    expect(await runBackup([file], env, backup.output)).toBe(0);
    const restore = captured();
    const restoredDir = path.join(root, 'pg-restored');
    expect(await runRestore([file], { DATA_DIR: restoredDir, DATABASE_URL: targetUrl }, restore.output)).toBe(
      0,
    );
    expect(readFileSync(path.join(restoredDir, 'jwt-secret'), 'utf8')).toBe(
      readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8'),
    );
    const restored = openPostgres(targetUrl, 1);
    try {
      const rows = await restored.db
        .select()
        .from(departments)
        .where(inArray(departments.slug, ['kept-pg']));
      expect(rows).toHaveLength(1);
      // The target was created empty: the vector extension came with the dump.
      const extensions = await restored.db.execute(
        sql`SELECT extname FROM pg_extension WHERE extname = 'vector'`,
      );
      expect((extensions as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    } finally {
      await restored.close();
    }
    const again = captured();
    expect(
      await runRestore(
        [file],
        { DATA_DIR: path.join(root, 'pg-again'), DATABASE_URL: targetUrl },
        again.output,
      ),
    ).toBe(1);
    expect(again.err.join('\n')).toContain('is not empty');
  }, 120_000);
});
