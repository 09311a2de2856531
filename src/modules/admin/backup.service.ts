import { createReadStream, type ReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Actor } from '../../core/auth/actor.js';
import { writeBackupArchive } from '../../core/backup/backup-archive.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { ConflictError, ForbiddenError } from '../../core/errors/app-errors.js';

export interface BackupServiceDeps {
  database: Pick<DatabaseHandle, 'driver' | 'snapshot'>;
  dataDir: string;
  serviceVersion: string;
}

/** A backup being answered: the archive's bytes, removed from disk once read or abandoned. */
export interface BackupDownload {
  fileName: string;
  stream: ReadStream;
}

/**
 * Backups of a running embedded service: the database (a consistent PGlite
 * snapshot, taken between transactions) and DATA_DIR's files, as one tar.
 * With PostgreSQL the `backup` command runs pg_dump instead (docs/operations.md).
 */
export function createBackupService(deps: BackupServiceDeps) {
  return {
    /**
     * Writes a backup archive of everything the service stores and answers
     * it as a stream; the temporary file goes when the stream closes. Every
     * commit made before the call is in it.
     * @throws ForbiddenError for a caller without access to every department
     *   (a backup holds every department's data, password hashes included).
     * @throws ConflictError when the database is PostgreSQL.
     */
    async create(actor: Actor): Promise<BackupDownload> {
      if (!actor.isGlobal) {
        throw new ForbiddenError(
          "A backup holds every department's data: it needs a user with access to every department",
        );
      }
      const { snapshot } = deps.database;
      if (deps.database.driver !== 'pglite' || !snapshot) {
        throw new ConflictError(
          'This service keeps its data in PostgreSQL (DATABASE_URL): back it up with `npm run backup`, which runs pg_dump',
        );
      }
      const dir = await mkdtemp(path.join(tmpdir(), 'aos-backup-'));
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const fileName = `backup-${stamp}.tar`;
      const file = path.join(dir, fileName);
      try {
        const tarball = await snapshot();
        await writeBackupArchive(file, {
          dataDir: deps.dataDir,
          dump: { driver: 'pglite', tarball },
          serviceVersion: deps.serviceVersion,
        });
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      const stream = createReadStream(file);
      stream.once('close', () => void rm(dir, { recursive: true, force: true }));
      return { fileName, stream };
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
