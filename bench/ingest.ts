/**
 * Ingestion benchmark: pages per second for a generated 50-page text PDF and
 * seconds per OCR page, each through the service's real path (upload → queue
 * → worker → extraction → chunking → embedding → stored chunks, on embedded
 * PGlite with the offline embedder), next to a reference measured in the same
 * run: the bare extraction of the same bytes (text layer; OCR of the same
 * image without the PDF and the pipeline around it).
 *
 * Run: `npm run bench:ingest` (BENCH_PDF_PAGES, BENCH_OCR_RUNS to change the
 * sizes). Writes its table into docs/benchmarks.md between its markers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import pino from 'pino';
import { extractText, getDocumentProxy } from 'unpdf';
import { createContainer } from '../src/container.js';
import { loadConfig } from '../src/core/config/config.js';
import { openPglite } from '../src/core/db/client.js';
import { createOcr } from '../src/modules/knowledge/ingestion/ocr.js';
import { startWorkers } from '../src/workers/index.js';
import { fixture, imageOnlyPdf, multiPageTextPdf, OCR_IMAGES } from '../test/fixtures/documents.js';

const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 50);
const OCR_RUNS = Number(process.env.BENCH_OCR_RUNS ?? 3);
const WORDS =
  'policy employee leave request approval salary contract office schedule holiday report manager'.split(' ');

/** Forty lines of plain sentences a page, different on every page. */
function pageLines(page: number): string[] {
  const lines: string[] = [`Section ${page + 1}`];
  for (let line = 0; line < 40; line++) {
    const words = Array.from({ length: 12 }, (_, i) => WORDS[(page * 7 + line * 3 + i) % WORDS.length]);
    lines.push(`${words.join(' ')} number ${page * 100 + line}.`);
  }
  return lines;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-bench-ingest-'));
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'b'.repeat(48), LOG_LEVEL: 'warn' });
  const container = await createContainer(config, {
    logger: pino({ level: 'warn' }),
    database: await openPglite({}),
  });
  startWorkers(container);
  const department = await container.repositories.departments.insert({ name: 'Bench', slug: 'bench' });
  const base = await container.knowledge.repositories.bases.insert({
    name: 'Bench',
    departmentId: department.id,
  });

  /** Uploads bytes as a file and waits for the worker to finish it; answers seconds and the document. */
  async function ingest(name: string, bytes: Buffer) {
    const started = performance.now();
    const { tempPath } = await container.knowledge.files.receive(Readable.from([bytes]));
    const doc = await container.knowledge.documents.upload(container.system, {
      knowledgeBaseId: base.id,
      title: name,
      file: { tempPath, fileName: name, size: bytes.length },
    });
    for (;;) {
      const row = await container.knowledge.repositories.documents.findById(doc.id);
      if (row?.status === 'ready' || row?.status === 'failed') {
        if (row.status === 'failed') throw new Error(`${name} failed: ${JSON.stringify(row.metadata.error)}`);
        return { seconds: (performance.now() - started) / 1000, row };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const textPdf = multiPageTextPdf(Array.from({ length: PAGES }, (_, i) => pageLines(i)));
  // Warm-up: loads pdf.js and the embedder once, as a running worker would have.
  await ingest('warmup.pdf', multiPageTextPdf([pageLines(999)]));

  const refStart = performance.now();
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(textPdf)), { mergePages: false });
  const refSeconds = (performance.now() - refStart) / 1000;
  if (text.length !== PAGES) throw new Error('reference extraction lost pages');

  const pdfRun = await ingest('report.pdf', textPdf);
  const chunks = await container.knowledge.repositories.documents.countChunks(pdfRun.row.id);

  const scanJpeg = fixture(OCR_IMAGES.scanJpg.file);
  const scanPdf = imageOnlyPdf(scanJpeg);
  const ocr = createOcr(dataDir);
  await ocr.recognize([scanJpeg]); // prepares the language folder once
  const ocrRef: number[] = [];
  const ocrPipeline: number[] = [];
  for (let run = 0; run < OCR_RUNS; run++) {
    const start = performance.now();
    await ocr.recognize([scanJpeg]);
    ocrRef.push((performance.now() - start) / 1000);
    ocrPipeline.push((await ingest(`scan-${run}.pdf`, scanPdf)).seconds);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  const rows = [
    ['what', 'service pipeline', 'reference (bare extraction)'],
    [
      `${PAGES}-page text PDF`,
      `${(PAGES / pdfRun.seconds).toFixed(1)} pages/s (${pdfRun.seconds.toFixed(2)} s${chunks ? `, ${chunks} chunks` : ''})`,
      `${(PAGES / refSeconds).toFixed(1)} pages/s (${refSeconds.toFixed(2)} s, unpdf text layer only)`,
    ],
    [
      'OCR page (scanned PDF, Ukrainian)',
      `${median(ocrPipeline).toFixed(2)} s/page (median of ${OCR_RUNS})`,
      `${median(ocrRef).toFixed(2)} s/page (tesseract.js on the same JPEG)`,
    ],
  ];
  const table = rows
    .map((r, i) => `| ${r.join(' | ')} |${i === 0 ? `\n|${' --- |'.repeat(r.length)}` : ''}`)
    .join('\n');
  console.log(table);
  writeSection(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${process.platform} ${process.arch}, Node ${process.version}, ` +
      'embedded drivers, offline embedder.\n\n' +
      table,
  );
  await container.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const START = '<!-- bench:ingest:start -->';
const END = '<!-- bench:ingest:end -->';

/** Replaces this benchmark's section of docs/benchmarks.md, or appends it. */
function writeSection(body: string): void {
  const file = path.join(import.meta.dirname, '..', 'docs', 'benchmarks.md');
  const current = readFileSync(file, 'utf8');
  const section = `${START}\n${body}\n${END}`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n## Ingestion (\`npm run bench:ingest\`)\n\n${section}\n`;
  writeFileSync(file, next);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
