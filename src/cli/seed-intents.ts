/**
 * `npm run seed:intents -- <file.json>`: loads intent example phrases into
 * namespaces (see docs/intents.md and seed-intents-command.ts).
 */
import { runSeedIntents } from './seed-intents-command.js';

process.exitCode = await runSeedIntents(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
