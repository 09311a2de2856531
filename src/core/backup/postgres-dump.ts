import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BackupError } from './backup-archive.js';

const run = promisify(execFile);

/**
 * The connection without its password, which goes to the tools through
 * PGPASSWORD: a command line is visible to every user of the machine.
 */
function connection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

async function tool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(command, args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new BackupError(
        `${command} was not found: install the PostgreSQL client tools of the server's version`,
      );
    }
    throw new BackupError(`${command} failed: ${(failure.stderr ?? failure.message).trim().slice(0, 2000)}`);
  }
}

/** pg_dump of the whole database in the custom format (extensions such as vector included). */
export async function pgDump(databaseUrl: string, outFile: string): Promise<void> {
  const { url, env } = connection(databaseUrl);
  await tool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${outFile}`, url], env);
}

/** pg_restore of a custom-format dump into the (empty) database. */
export async function pgRestore(databaseUrl: string, dumpFile: string): Promise<void> {
  const { url, env } = connection(databaseUrl);
  await tool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, dumpFile],
    env,
  );
}
