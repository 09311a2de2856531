import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type DatabaseHandle, openPglite, openPostgres } from '../src/core/db/client.js';
import { adminQuery, withDatabase } from './global-setup.js';

/**
 * A fresh, migrated database for one test file: a copy of the run's template
 * (PostgreSQL) or of its dumped data directory (PGlite).
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const templateUrl = inject('pgTemplateUrl');
  if (templateUrl) {
    const template = new URL(templateUrl).pathname.slice(1);
    const name = `aos_${inject('runId')}_${randomBytes(4).toString('hex')}`;
    await createFromTemplate(templateUrl, name, template);
    return openPostgres(withDatabase(templateUrl, name), 5);
  }
  const dumpPath = inject('pgliteDumpPath');
  if (!dumpPath) throw new Error('global setup did not prepare a database');
  return openPglite({ loadDataDir: new Blob([readFileSync(dumpPath)]) });
}

/** The database URL of the run when tests run on PostgreSQL, else null. */
export function testDatabaseUrl(): string | null {
  return inject('pgTemplateUrl');
}

async function createFromTemplate(url: string, name: string, template: string): Promise<void> {
  // Two files copying the template at the same instant can collide; a short retry settles it.
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(url, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (error) {
      if (attempt >= 10 || !String(error).includes('being accessed by other users')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

/** A Redis key prefix of this test file's own, under the run's prefix; null without REDIS_URL. */
export function testRedis(): { url: string; prefix: string } | null {
  const url = process.env.REDIS_URL;
  if (!url) return null;
  return { url, prefix: `aos-${inject('runId')}-${randomBytes(4).toString('hex')}` };
}
