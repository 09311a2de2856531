import type { Block } from '../chunking.js';

/** Collapses runs of spaces and tabs, trims each line, and drops blank lines at the edges. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .trim();
}

/** Line endings to `\n`, NUL and other control characters (but tab and newline) removed. */
export function normaliseText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

/** Joins visual line wraps (PDF, OCR) into running text, rejoining words hyphenated across lines. */
function unwrap(paragraph: string): string {
  return paragraph.replace(/(\p{L})-\n(?=\p{Ll})/gu, '$1').replace(/\n/g, ' ');
}

/**
 * Plain text: paragraphs are separated by blank lines. `page` is stamped on
 * every block; `unwrap` joins the lines inside a paragraph (text laid out by
 * a PDF or read by OCR, where a line end is only where the line was full).
 */
export function plainTextBlocks(text: string, options: { page?: number; unwrap?: boolean } = {}): Block[] {
  const { page } = options;
  return normaliseText(text)
    .split(/\n\s*\n/)
    .map(tidy)
    .filter((paragraph) => paragraph.length > 0)
    .flatMap((paragraph) => {
      const block: Block & { kind: 'paragraph' } =
        page === undefined
          ? { kind: 'paragraph', text: paragraph }
          : { kind: 'paragraph', text: paragraph, page };
      // List items are split out before unwrapping: their line starts are real.
      return splitListItems(block, '\n').map((b) =>
        options.unwrap && b.kind === 'paragraph' ? { ...b, text: unwrap(b.text) } : b,
      );
    });
}

/**
 * The start of a list item: a bullet (`-`, `*`, `+`, `•` and kin) or a
 * number or letter with `.` or `)` ("1.", "2)", "a)"), then a space.
 */
export const LIST_ITEM = /^\s*(?:[-*+•▪◦‣●○■□➢►–]|\(?\d{1,3}[.)]|\(?[a-zа-яіїєґ]\))\s+\S/u;
/** A Markdown table row: `| a | b |`. */
const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** A Markdown table's delimiter row: `|---|:---:|`. */
const TABLE_DELIMITER = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** A table row's cells joined with ` | `, as HTML and DOCX tables are. */
const tableRowText = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim())
    .filter(Boolean)
    .join(' | ');

/**
 * A paragraph's lines as blocks: each list item (with the indented lines
 * under it) is a block of its own, lines before the first item stay one
 * paragraph. `page` is carried over.
 */
function splitListItems(paragraph: Block & { kind: 'paragraph' }, lineJoin: string): Block[] {
  const lines = paragraph.text.split('\n');
  if (!lines.some((line) => LIST_ITEM.test(line))) return [paragraph];
  const out: Block[] = [];
  let current: { lines: string[]; item: boolean } | null = null;
  const flush = () => {
    if (!current) return;
    const text = current.lines.join(lineJoin).trim();
    if (text) {
      const block: Block = { kind: 'paragraph', text };
      if (paragraph.page !== undefined) block.page = paragraph.page;
      if (current.item) block.unit = 'list-item';
      out.push(block);
    }
    current = null;
  };
  for (const line of lines) {
    if (LIST_ITEM.test(line)) {
      flush();
      current = { lines: [line.trim()], item: true };
    } else if (current) current.lines.push(line.trim());
    else current = { lines: [line.trim()], item: false };
  }
  flush();
  return out;
}

const ATX_HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^(=+|-+)[ \t]*$/;
const FENCE = /^(```|~~~)/;

/**
 * Markdown: ATX (`# Title`) and setext (underlined) headings, paragraphs
 * separated by blank lines, fenced code kept whole. Inline markup stays as
 * written; it reads fine and the keyword index ignores punctuation.
 */
export function markdownBlocks(markdown: string): Block[] {
  const lines = normaliseText(markdown).split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const text = tidy(paragraph.join('\n'));
    if (text) blocks.push(...splitListItems({ kind: 'paragraph', text }, ' '));
    paragraph = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line.trim());
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) code.push(lines[i]!);
      const text = code.join('\n').trim();
      if (text) blocks.push({ kind: 'paragraph', text });
      continue;
    }
    const atx = ATX_HEADING.exec(line);
    if (atx) {
      flush();
      const text = atx[2]!.trim();
      if (text) blocks.push({ kind: 'heading', level: atx[1]!.length, text });
      continue;
    }
    const next = lines[i + 1];
    if (paragraph.length === 0 && line.trim() && next !== undefined && SETEXT_UNDERLINE.exec(next)) {
      blocks.push({ kind: 'heading', level: next.trim().startsWith('=') ? 1 : 2, text: line.trim() });
      i++;
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    if (TABLE_ROW.test(line)) {
      flush();
      if (!TABLE_DELIMITER.test(line)) {
        const text = tableRowText(line);
        if (text) blocks.push({ kind: 'paragraph', text, unit: 'table-row' });
      }
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}
