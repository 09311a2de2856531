import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BackupError, writeBackupArchive } from '../core/backup/backup-archive.js';
import { pgDump } from '../core/backup/postgres-dump.js';
import { ConfigError, loadConfig } from '../core/config/config.js';
import { openDatabase } from '../core/db/client.js';
import { DataDirLockedError } from '../core/db/data-dir-lock.js';
import { VERSION } from '../core/version.js';
import type { CommandOutput } from './command-output.js';

export const BACKUP_USAGE = `Usage: npm run backup -- <file.tar> [--from <service address>]

Writes one file with everything the service stores: the database and the files
under DATA_DIR (uploaded documents, avatars, the generated JWT secret).
  DATABASE_URL set   pg_dump (the PostgreSQL client tools of the server's
                     version must be installed) plus DATA_DIR's files.
  embedded, stopped  the command opens DATA_DIR itself.
  embedded, running  the running service writes it (a consistent snapshot
                     between transactions): the command asks the service at
                     --from (default http://127.0.0.1:$PORT) with the bearer
                     token in BACKUP_TOKEN, an administrator's (canEditSettings
                     and every department).
Restore it with: npm run restore -- <file.tar>`;

type BackupArgs = { help: true } | { help: false; file: string; from: string | null };

function parseArgs(argv: readonly string[]): BackupArgs | string {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return { help: true };
  const rest = [...argv];
  let from: string | null = null;
  const at = rest.indexOf('--from');
  if (at >= 0) {
    from = rest[at + 1] ?? null;
    if (!from) return 'Name the service address after --from';
    rest.splice(at, 2);
  }
  const unknown = rest.filter((arg) => arg.startsWith('-'));
  if (unknown.length > 0) return `Unknown option ${unknown.join(', ')}`;
  if (rest.length !== 1) return 'Name one backup file to write';
  return { help: false, file: path.resolve(rest[0]!), from };
}

/** Asks a running service for its backup and writes the answer to `file`. */
async function backupThroughService(base: string, token: string, file: string): Promise<void> {
  const url = `${base.replace(/\/+$/, '')}/api/v1/admin/backup`;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    throw new BackupError(`The service at ${base} cannot be reached: ${(error as Error).message}`);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new BackupError(`The service answered ${response.status}: ${body.message ?? response.statusText}`);
  }
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
}

/**
 * The whole `backup` command. Answers the exit code (0 ok, 1 failure, 2 bad
 * usage); never throws for a problem it can describe. The file appears only
 * once complete (written beside it, then renamed).
 */
export async function runBackup(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: CommandOutput,
): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    output.err(`${args}\n\n${BACKUP_USAGE}`);
    return 2;
  }
  if (args.help) {
    output.out(BACKUP_USAGE);
    return 0;
  }
  if (existsSync(args.file)) {
    output.err(`${args.file} already exists; name a new file`);
    return 1;
  }
  const work = await mkdtemp(path.join(path.dirname(args.file), '.backup-'));
  const partial = path.join(work, 'backup.tar');
  try {
    const config = loadConfig(env);
    if (config.databaseUrl) {
      const dumpFile = path.join(work, 'postgres.dump');
      await pgDump(config.databaseUrl, dumpFile);
      await writeBackupArchive(partial, {
        dataDir: config.dataDir,
        dump: { driver: 'postgres', dumpFile },
        serviceVersion: VERSION,
      });
      output.out(`database: postgres (pg_dump), files: ${config.dataDir}`);
    } else {
      const how = await backupEmbedded(config, args.from, env.BACKUP_TOKEN ?? null, partial);
      output.out(how);
    }
    await rename(partial, args.file);
    output.out(`backup written: ${args.file}`);
    return 0;
  } catch (error) {
    output.err(error instanceof ConfigError || error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The embedded database: read directly when no process holds it, else through the running service. */
async function backupEmbedded(
  config: ReturnType<typeof loadConfig>,
  from: string | null,
  token: string | null,
  file: string,
): Promise<string> {
  try {
    const database = await openDatabase(config);
    try {
      const tarball = await database.snapshot!();
      await writeBackupArchive(file, {
        dataDir: config.dataDir,
        dump: { driver: 'pglite', tarball },
        serviceVersion: VERSION,
      });
    } finally {
      await database.close();
    }
    return `database: pglite (${config.dataDir}, no service running), files: ${config.dataDir}`;
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const base = from ?? `http://127.0.0.1:${config.port}`;
    if (!token) {
      throw new BackupError(
        `The embedded database is in use by process ${error.holderPid} (the running service): set BACKUP_TOKEN ` +
          `to an administrator's bearer token and the service writes the backup (asked at ${base}; --from names another address)`,
      );
    }
    await backupThroughService(base, token, file);
    return `database: pglite, written by the running service at ${base}`;
  }
}
