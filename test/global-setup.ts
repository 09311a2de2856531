import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/core/db/client.js';
import { deleteRedisKeys } from './redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL runs: the migrated template database every test file copies. */
    pgTemplateUrl: string | null;
    /** PGlite runs: the tarball of a migrated data directory every test file loads. */
    pgliteDumpPath: string | null;
    /** Prefix shared by the run's Redis keys and databases, so teardown finds them. */
    runId: string;
  }
}

/** Migrates once per run; each test file then gets its own copy (see test/database.ts). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runId = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  project.provide('runId', runId);
  const teardown = await setupDatabase(project, runId);
  return async () => {
    await teardown();
    if (process.env.REDIS_URL) await deleteRedisKeys(process.env.REDIS_URL, `aos-${runId}-*`);
  };
}

async function setupDatabase(project: TestProject, runId: string): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const templateName = `aos_${runId}_tpl`;
    await adminQuery(databaseUrl, `CREATE DATABASE "${templateName}"`);
    const templateUrl = withDatabase(databaseUrl, templateName);
    const handle = openPostgres(templateUrl, 1);
    await handle.migrate();
    await handle.close();
    project.provide('pgTemplateUrl', templateUrl);
    project.provide('pgliteDumpPath', null);
    return async () => {
      const rows = await adminQuery(
        databaseUrl,
        `SELECT datname FROM pg_database WHERE datname LIKE 'aos\\_${runId}\\_%'`,
      );
      for (const { datname } of rows) {
        await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'aos-test-'));
  const handle = await openPglite({});
  await handle.migrate();
  const dump = await handle.client.dumpDataDir();
  await handle.close();
  const dumpPath = path.join(dir, 'migrated.tar');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgTemplateUrl', null);
  project.provide('pgliteDumpPath', dumpPath);
  return async () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(url: string, text: string): Promise<Array<Record<string, string>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}
