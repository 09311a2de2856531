import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { BackupError, unpackBackupArchive } from '../core/backup/backup-archive.js';
import { pgRestore } from '../core/backup/postgres-dump.js';
import { resolveDataDir } from '../core/config/config.js';
import { openPglite } from '../core/db/client.js';
import type { CommandOutput } from './command-output.js';

export const RESTORE_USAGE = `Usage: npm run restore -- <file.tar>

Puts a backup written by \`npm run backup\` back: DATA_DIR's files, and the
database. An embedded backup becomes the embedded database under DATA_DIR
(leave DATABASE_URL unset); a PostgreSQL backup is restored with pg_restore
into the database DATABASE_URL names, which must be empty (create it first).
DATA_DIR must be empty or absent, so nothing of another installation mixes
in. Start the service afterwards: it applies any newer migrations.`;

async function isEmptyFolder(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await readdir(dir)).length === 0;
}

/** Whether the PostgreSQL database holds no table of its own (extensions aside). */
async function isEmptyDatabase(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    return Number(rows[0]?.n ?? 0) === 0;
  } finally {
    await client.end();
  }
}

/**
 * The whole `restore` command. Reads DATA_DIR (resolveDataDir) and
 * DATABASE_URL rather than loadConfig, which would write a new JWT secret
 * into the very folder the backup's secret goes to. Answers the exit code
 * (0 ok, 1 failure, 2 bad usage).
 */
export async function runRestore(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: CommandOutput,
): Promise<number> {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) {
    output.out(RESTORE_USAGE);
    return 0;
  }
  if (argv.length !== 1 || argv[0]!.startsWith('-')) {
    output.err(`Name one backup file\n\n${RESTORE_USAGE}`);
    return 2;
  }
  const file = path.resolve(argv[0]!);
  const dataDir = resolveDataDir(env);
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  let work: string | null = null;
  try {
    if (!existsSync(file)) throw new BackupError(`No such file: ${file}`);
    if (!(await isEmptyFolder(dataDir))) {
      throw new BackupError(`DATA_DIR ${dataDir} is not empty: restore into an empty or new folder`);
    }
    await mkdir(dataDir, { recursive: true });
    work = await mkdtemp(path.join(path.dirname(dataDir), '.restore-'));
    const backup = await unpackBackupArchive(file, work);
    if (backup.manifest.database === 'pglite') {
      if (databaseUrl) {
        throw new BackupError(
          'This is a backup of an embedded database: unset DATABASE_URL to restore it under DATA_DIR',
        );
      }
      const tarball = new Blob([await readFile(backup.databaseFile)]);
      const database = await openPglite({ dataDir: path.join(dataDir, 'pgdata'), loadDataDir: tarball });
      await database.close();
    } else {
      if (!databaseUrl) {
        throw new BackupError(
          'This is a backup of a PostgreSQL database: set DATABASE_URL to the empty database to restore it into',
        );
      }
      if (!(await isEmptyDatabase(databaseUrl))) {
        throw new BackupError(
          'The database DATABASE_URL names is not empty: restore into a new, empty database',
        );
      }
      await pgRestore(databaseUrl, backup.databaseFile);
    }
    if (existsSync(backup.filesDir)) await cp(backup.filesDir, dataDir, { recursive: true });
    output.out(
      `restored the ${backup.manifest.database} backup of ${backup.manifest.createdAt} ` +
        `(service ${backup.manifest.serviceVersion}) into ${dataDir}${databaseUrl ? ' and DATABASE_URL' : ''}`,
    );
    return 0;
  } catch (error) {
    output.err(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    if (work) await rm(work, { recursive: true, force: true });
  }
}
