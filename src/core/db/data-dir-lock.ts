import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * The embedded database (PGlite) has no lock of its own against a second
 * opener, and two processes writing one data folder corrupt it. Whoever opens
 * it (the service, `seed:intents`, `reindex`) first takes this lock: a file
 * beside the folder naming the holder's process id and host.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holderPid: number,
  ) {
    super(
      `The embedded database ${lockFile.replace(/\.lock$/, '')} is in use by process ${holderPid} ` +
        '(a running service or command). Stop that process first; a running service is changed through ' +
        `its API. If no such process runs, delete ${lockFile}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): Promise<void>;
}

interface LockRecord {
  pid: number;
  host: string;
  since: string;
}

/**
 * Lock files this process holds, each with the record of its holder: this
 * process's own pid in a file it does not hold is a previous life's.
 */
const heldHere = new Map<string, LockRecord>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readRecord(file: string): Promise<LockRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<LockRecord>;
    return typeof parsed.pid === 'number' ? (parsed as LockRecord) : null;
  } catch {
    return null;
  }
}

/**
 * A record is stale when its process is gone: not alive on this host, or this
 * very process without holding it (the pid of a process that ran before a
 * restart, as a container's first process). A record of another host cannot
 * be checked and counts as held; an unreadable one (a holder killed while
 * writing it) as stale.
 */
function isStale(file: string, record: LockRecord | null): boolean {
  if (!record) return true;
  if (record.host !== hostname()) return false;
  if (record.pid === process.pid) return !heldHere.has(file);
  return !isAlive(record.pid);
}

/**
 * Takes the lock of the data folder `dataDir` (the file `<dataDir>.lock`).
 * A lock left by a process that has died is taken over.
 * @throws DataDirLockedError while another live process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = `${dataDir.replace(/[\\/]+$/, '')}.lock`;
  const record: LockRecord = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  await mkdir(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(record));
      } finally {
        await handle.close();
      }
      heldHere.set(file, record);
      return {
        file,
        async release() {
          // A handle released twice must not free a later holder's lock.
          if (heldHere.get(file) !== record) return;
          heldHere.delete(file);
          await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readRecord(file);
    if (!isStale(file, holder)) throw new DataDirLockedError(file, holder!.pid);
    await rm(file, { force: true });
  }
  const holder = await readRecord(file);
  throw new DataDirLockedError(file, holder?.pid ?? 0);
}
