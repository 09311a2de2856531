/**
 * `npm run reprocess -- --all`: re-chunks every stored document with the
 * current chunking (see reprocess-command.ts and docs/knowledge.md).
 */
import { runReprocess } from './reprocess-command.js';

process.exitCode = await runReprocess(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
