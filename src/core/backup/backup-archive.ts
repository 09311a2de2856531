import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';

/**
 * A backup is one tar file:
 *   manifest.json            what it holds (format, version, database driver)
 *   database/pgdata.tar      embedded: PGlite's data-directory dump
 *   database/postgres.dump   PostgreSQL: pg_dump's custom format
 *   files/…                  DATA_DIR's own files (uploaded documents, avatars, the generated JWT secret)
 */
export const BACKUP_FORMAT = 'aos-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** DATA_DIR entries not copied: the database (dumped instead), its lock, and the OCR data rebuilt from npm packages. */
const NOT_COPIED = new Set(['pgdata', 'pgdata.lock', 'ocr']);

export type BackupDriver = 'pglite' | 'postgres';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  serviceVersion: string;
  database: BackupDriver;
}

/** The database part of a backup: PGlite's tarball, or the file pg_dump wrote. */
export type DatabaseDump = { driver: 'pglite'; tarball: Blob } | { driver: 'postgres'; dumpFile: string };

const DATABASE_FILE: Record<BackupDriver, string> = {
  pglite: 'database/pgdata.tar',
  postgres: 'database/postgres.dump',
};

/** A file that is not a backup of this service, or one it cannot restore; the message says which. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** The top-level entries of DATA_DIR that a backup copies. */
async function copiedEntries(dataDir: string): Promise<string[]> {
  if (!existsSync(dataDir)) return [];
  const names = await readdir(dataDir);
  // Temporary files of atomic writes (`.name.<pid>.tmp`) are half-written by definition.
  return names.filter((name) => !NOT_COPIED.has(name) && !name.endsWith('.tmp')).sort();
}

/**
 * Writes the backup archive `out`: the manifest, the database dump and the
 * files under `dataDir`. The files are read after the dump, so a document
 * row never names a file the archive lacks (files are written before their
 * rows, and deleted files are never read again).
 */
export async function writeBackupArchive(
  out: string,
  input: { dataDir: string; dump: DatabaseDump; serviceVersion: string },
): Promise<BackupManifest> {
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    serviceVersion: input.serviceVersion,
    database: input.dump.driver,
  };
  const staging = await mkdtemp(path.join(path.dirname(path.resolve(out)), '.backup-'));
  try {
    await mkdir(path.join(staging, 'database'));
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const databaseFile = path.join(staging, DATABASE_FILE[input.dump.driver]);
    if (input.dump.driver === 'pglite') {
      await writeFile(databaseFile, Buffer.from(await input.dump.tarball.arrayBuffer()));
    } else {
      await writeFile(databaseFile, await readFile(input.dump.dumpFile));
    }
    await tar.create({ cwd: staging, file: out, portable: true }, ['manifest.json', 'database']);
    const entries = await copiedEntries(input.dataDir);
    if (entries.length > 0) {
      await tar.replace({ cwd: input.dataDir, file: out, portable: true, prefix: 'files' }, entries);
    }
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** What {@link unpackBackupArchive} found. */
export interface UnpackedBackup {
  manifest: BackupManifest;
  /** The database dump's path inside the unpacked folder. */
  databaseFile: string;
  /** The folder of DATA_DIR's files (may not exist when the backup held none). */
  filesDir: string;
}

/**
 * Unpacks a backup archive into the empty folder `into` and checks its manifest.
 * @throws BackupError when the file is not a backup this version can restore.
 */
export async function unpackBackupArchive(file: string, into: string): Promise<UnpackedBackup> {
  try {
    // Entries are confined to `into` by tar (no absolute paths, no `..`).
    await tar.extract({ file, cwd: into, strict: true });
  } catch (error) {
    throw new BackupError(`${file} is not a readable backup archive: ${(error as Error).message}`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(into, 'manifest.json'), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${file} has no readable manifest.json; it is not a backup of this service`);
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(`${file} is not a backup of this service (format ${String(manifest.format)})`);
  }
  const databaseFile = path.join(into, DATABASE_FILE[manifest.database] ?? '');
  if (!DATABASE_FILE[manifest.database] || !existsSync(databaseFile)) {
    throw new BackupError(`${file} holds no database dump for "${String(manifest.database)}"`);
  }
  return { manifest, databaseFile, filesDir: path.join(into, 'files') };
}
