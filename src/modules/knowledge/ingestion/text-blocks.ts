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
    .map((paragraph) => (options.unwrap ? unwrap(paragraph) : paragraph))
    .filter((paragraph) => paragraph.length > 0)
    .map(
      (paragraph): Block =>
        page === undefined
          ? { kind: 'paragraph', text: paragraph }
          : { kind: 'paragraph', text: paragraph, page },
    );
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
    if (text) blocks.push({ kind: 'paragraph', text });
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
    paragraph.push(line);
  }
  flush();
  return blocks;
}
