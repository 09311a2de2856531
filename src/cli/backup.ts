/**
 * `npm run backup -- <file.tar>`: a backup of the database and DATA_DIR's
 * files (see docs/operations.md, Backups, and backup-command.ts).
 */
import { runBackup } from './backup-command.js';

process.exitCode = await runBackup(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
