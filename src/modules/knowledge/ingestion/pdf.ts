import { createIsomorphicCanvasFactory, getDocumentProxy, renderPageAsImage } from 'unpdf';
import type { Block } from '../chunking.js';
import { IngestionError } from './errors.js';
import type { Ocr } from './ocr.js';
import { layoutBlocks, type PageRuns, pagesNeedingWeights, type TextRun } from './pdf-layout.js';
import { plainTextBlocks } from './text-blocks.js';

// unpdf 1.7.0's bundled pdf.js calls ArrayBuffer.prototype.transferToFixedLength
// (Node 21+) when it compiles fonts for rendering; without it every glyph of a
// rendered page vanishes on Node 20. A copying stand-in gives the same bytes.
if (!('transferToFixedLength' in ArrayBuffer.prototype)) {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    value(this: ArrayBuffer, length?: number) {
      return this.slice(0, length ?? this.byteLength);
    },
    configurable: true,
    writable: true,
  });
}

/** A page with fewer visible characters than this has no usable text layer and is read by OCR. */
export const MIN_TEXT_LAYER_CHARS = 16;
/** Pages rendered for OCR per document; later image-only pages are skipped and counted. */
export const MAX_OCR_PAGES = 100;
/** Render scale for OCR: 2 is 144 dpi, enough for body text. */
const OCR_SCALE = 2;

/** The caps a PDF is read under (config.decoders). */
export interface PdfLimits {
  /** DECODER_MAX_PAGES: a PDF with more pages is refused. */
  maxPages: number;
  /** DECODER_MAX_PIXELS: a page is rendered for OCR at a scale that keeps its bitmap within this. */
  maxPixels: number;
}

export interface PdfExtraction {
  blocks: Block[];
  title: string | null;
  pages: number;
  /** Pages read by OCR because they had no text layer. */
  ocrPages: number[];
  /** Image-only pages past MAX_OCR_PAGES, not read. */
  skippedPages: number;
}

const visibleChars = (text: string) => text.replace(/\s/g, '').length;

type PdfProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

/** A page's text layer as positioned runs (pdf.js text items with their font size and baseline). */
async function pageRuns(pdf: PdfProxy, pageNumber: number): Promise<PageRuns> {
  const page = await pdf.getPage(pageNumber);
  const content = await page.getTextContent();
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const [a, b, c, d, x, y] = item.transform as number[];
    runs.push({
      text: item.str,
      x: x ?? 0,
      y: y ?? 0,
      width: item.width,
      // The vertical scale of the text matrix is the font size (rotated text included).
      size: Math.hypot(c ?? 0, d ?? 0) || Math.hypot(a ?? 0, b ?? 0),
      font: item.fontName,
      endOfLine: item.hasEOL,
    });
  }
  return { page: pageNumber, runs, boldFonts: new Set() };
}

/**
 * The bold fonts of a page. pdf.js learns a font's name and weight only while
 * it builds the page's drawing operations; its text items name fonts by an
 * internal id. A page it cannot parse has no bold fonts.
 */
async function boldFonts(pdf: PdfProxy, pageNumber: number): Promise<Set<string>> {
  const page = await pdf.getPage(pageNumber);
  const bold = new Set<string>();
  try {
    await page.getOperatorList();
  } catch {
    return bold;
  }
  const content = await page.getTextContent();
  for (const item of content.items) {
    if (!('fontName' in item) || bold.has(item.fontName) || !page.commonObjs.has(item.fontName)) continue;
    const font = page.commonObjs.get(item.fontName) as { name?: string; bold?: boolean; black?: boolean };
    const name = font.name ?? '';
    if (font.bold || font.black || /bold|black|heavy|semibold|demi/i.test(name)) bold.add(item.fontName);
  }
  return bold;
}

/**
 * Text of every page from the PDF's text layer, laid out into headings,
 * paragraphs and list items by font size, weight and position
 * (pdf-layout.ts); pages without a text layer are rendered (pdf.js on
 * @napi-rs/canvas) and read by OCR into plain paragraphs. Blocks carry their
 * page number.
 * A page is rendered at 144 dpi, or smaller when that bitmap would be over
 * `limits.maxPixels` (a poster-sized page).
 * @throws IngestionError when the file is not a readable PDF or has more than `limits.maxPages` pages.
 */
export async function extractPdf(bytes: Buffer, ocr: Ocr, limits: PdfLimits): Promise<PdfExtraction> {
  const canvasImport = () => import('@napi-rs/canvas');
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: pdf.js reports errors only, no console warnings about damaged files.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { CanvasFactory, verbosity: 0 });
  } catch (error) {
    throw new IngestionError(`The PDF cannot be read: ${(error as Error).message}`);
  }
  try {
    if (pdf.numPages > limits.maxPages) {
      throw new IngestionError(
        `The PDF has ${pdf.numPages} pages, more than ${limits.maxPages} (DECODER_MAX_PAGES)`,
      );
    }
    const pages: PageRuns[] = [];
    for (let page = 1; page <= pdf.numPages; page++) pages.push(await pageRuns(pdf, page));
    const blankPages: number[] = [];
    pages.forEach((page) => {
      if (visibleChars(page.runs.map((r) => r.text).join('')) < MIN_TEXT_LAYER_CHARS)
        blankPages.push(page.page);
    });
    const ocrPages = blankPages.slice(0, MAX_OCR_PAGES);
    const images: Buffer[] = [];
    for (const page of ocrPages) {
      const { width, height } = (await pdf.getPage(page)).getViewport({ scale: 1 });
      // +1 on each side: the canvas rounds its size up.
      const fit = Math.sqrt(limits.maxPixels / ((width + 1) * (height + 1)));
      const png = await renderPageAsImage(pdf, page, { canvasImport, scale: Math.min(OCR_SCALE, fit) });
      images.push(Buffer.from(png));
    }
    const ocrTexts = await ocr.recognize(images);
    const ocrByPage = new Map(ocrPages.map((page, i) => [page, ocrTexts[i] ?? '']));

    // Text pages are laid out together (body size, heading sizes and running headers are
    // document-wide); OCR pages keep their plain paragraphs, in page order.
    const textPages = pages.filter((page) => !blankPages.includes(page.page));
    for (const page of pagesNeedingWeights(textPages)) {
      textPages.find((p) => p.page === page)!.boldFonts = await boldFonts(pdf, page);
    }
    const laidOut = layoutBlocks(textPages);
    const blocks: Block[] = [];
    for (const page of pages) {
      const ocrText = ocrByPage.get(page.page);
      if (ocrText !== undefined) blocks.push(...plainTextBlocks(ocrText, { page: page.page, unwrap: true }));
      else blocks.push(...laidOut.filter((block) => block.page === page.page));
    }
    const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' && info.Title.trim() ? info.Title.trim() : null;
    return {
      blocks,
      title,
      pages: pdf.numPages,
      ocrPages,
      skippedPages: blankPages.length - ocrPages.length,
    };
  } finally {
    await pdf.destroy();
  }
}
