import mammoth from 'mammoth';
import type { Config } from '../../../core/config/config.js';
import type { Block } from '../chunking.js';
import type { FileDocumentType } from '../document-files.js';
import { IngestionError } from './errors.js';
import { htmlStringBlocks, type webPageBlocks } from './html.js';
import { checkImagePixels } from './image-limits.js';
import type { Ocr } from './ocr.js';
import { extractPdf } from './pdf.js';
import { plainTextBlocks } from './text-blocks.js';
import { checkZipInflation } from './zip-inflation.js';

/** What a file or page was read to. */
export interface Extraction {
  blocks: Block[];
  /** A title found in the content (PDF info, page title), for reference. */
  title: string | null;
  /** How the text was obtained, kept in the document's `metadata.ingestion`. */
  details: Record<string, unknown>;
  /** The raw page of an HTML document, for the ingestion-time check of text it hides. */
  html?: string;
}

/** One decoding: a file's bytes, or the text of a fetched HTML page. */
export type DecodeTask =
  | { kind: 'file'; type: DecodedType; bytes: Uint8Array; limits: DecodeLimits; dataDir: string }
  | { kind: 'html'; html: string };

export type DecodeAnswer = Extraction | ReturnType<typeof webPageBlocks>;

/** The file types read by a decoder (binary formats); text and Markdown are read as they are. */
export type DecodedType = Exclude<FileDocumentType, 'md' | 'txt'>;

/** The caps a file is decoded under (config.decoders without the process's own limits). */
export type DecodeLimits = Pick<Config['decoders'], 'maxInflatedBytes' | 'maxPixels' | 'maxPages'>;

/**
 * Heading styles under their localised names, on top of mammoth's own map
 * (style ids Heading1..6 and the English names "Heading 1".."heading 6", which
 * Word writes whatever its interface language). Documents made by localised
 * editors or converted tools sometimes carry the translated name instead.
 */
const HEADING_NAMES = ['Заголовок', 'Überschrift', 'Titre', 'Título', 'Titolo', 'Nagłówek', 'Kop', 'Nadpis'];
export const DOCX_STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  ...HEADING_NAMES.flatMap((name) =>
    [1, 2, 3, 4, 5, 6].map((level) => `p[style-name='${name} ${level}'] => h${level}:fresh`),
  ),
];

/** How the error messages name each type. */
export const TYPE_NAMES: Record<DecodedType, string> = {
  pdf: 'PDF',
  docx: 'DOCX file',
  png: 'PNG image',
  jpg: 'JPEG image',
};

/**
 * The text of a PDF, DOCX, PNG or JPEG file as blocks, under the caps. Runs
 * inside a decoder process (decode.worker.ts): parsers and OCR meet untrusted
 * bytes here.
 * @throws IngestionError when the content cannot be read or is over a cap.
 */
export async function decodeFile(
  type: DecodedType,
  bytes: Buffer,
  deps: { ocr: Ocr; limits: DecodeLimits },
): Promise<Extraction> {
  const { ocr, limits } = deps;
  switch (type) {
    case 'pdf': {
      const pdf = await extractPdf(bytes, ocr, limits);
      return {
        blocks: pdf.blocks,
        title: pdf.title,
        details: {
          extractor: 'pdf',
          pages: pdf.pages,
          ocrPages: pdf.ocrPages,
          skippedPages: pdf.skippedPages,
        },
      };
    }
    case 'docx': {
      // A DOCX is a zip: its inflated size is bounded before mammoth inflates it into memory.
      await checkZipInflation(bytes, limits.maxInflatedBytes, TYPE_NAMES.docx);
      let html: string;
      try {
        html = (await mammoth.convertToHtml({ buffer: bytes }, { styleMap: DOCX_STYLE_MAP })).value;
      } catch (error) {
        throw new IngestionError(`The DOCX file cannot be read: ${(error as Error).message}`);
      }
      return { blocks: htmlStringBlocks(html), title: null, details: { extractor: 'docx' } };
    }
    case 'png':
    case 'jpg': {
      checkImagePixels(bytes, limits.maxPixels, TYPE_NAMES[type]);
      const [text = ''] = await ocr.recognize([bytes]);
      return { blocks: plainTextBlocks(text, { unwrap: true }), title: null, details: { extractor: 'ocr' } };
    }
  }
}
