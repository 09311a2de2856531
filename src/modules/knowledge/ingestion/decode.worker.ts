// The decoder process's entry: started by decoder.ts through the isolated
// runner, one process per file. Everything that parses untrusted bytes (PDF,
// DOCX, OCR, HTML pages) runs here, never in the service's process.
import { serveIsolatedTask } from '../../../core/isolation/isolated-task.js';
import { type DecodeAnswer, type DecodeTask, decodeFile } from './decode.js';
import { webPageBlocks } from './html.js';
import { createOcr } from './ocr.js';

serveIsolatedTask<DecodeTask, DecodeAnswer>(async (task) => {
  if (task.kind === 'html') return webPageBlocks(task.html);
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  return decodeFile(task.type, bytes, { ocr: createOcr(task.dataDir), limits: task.limits });
});
