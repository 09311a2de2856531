/**
 * `npm run restore -- <file.tar>`: puts a backup back into an empty DATA_DIR
 * (and an empty PostgreSQL database); see restore-command.ts.
 */
import { runRestore } from './restore-command.js';

process.exitCode = await runRestore(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
