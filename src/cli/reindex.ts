/**
 * `npm run reindex`: re-embeds stored vectors made by another embedder and
 * fills missing keyword terms (see reindex-command.ts and docs/llm.md).
 */
import { runReindex } from './reindex-command.js';

process.exitCode = await runReindex(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
