/**
 * Structure from a PDF's text layer: pdf.js gives positioned runs of text
 * (string, font size from the transform, font, baseline); this groups runs
 * into lines, lines into paragraphs (by vertical gaps, style changes and list
 * markers), and marks headings by what word processors make of them: a font
 * larger than the body text, a bold short line of its own, or a numbered
 * line ("2.1 Carry-over", "Section 3 Pay") standing before body text.
 * Heading levels follow the distinct heading sizes, largest first. Pure: no
 * I/O; pdf.ts feeds it.
 */
import type { Block } from '../chunking.js';
import { LIST_ITEM } from './text-blocks.js';

/** One run of text as pdf.js reports it, with the font resolved to size and weight. */
export interface TextRun {
  text: string;
  /** Left edge and baseline, in page units (y grows upwards). */
  x: number;
  y: number;
  width: number;
  /** Font size in page units: the vertical scale of the run's transform. */
  size: number;
  /** pdf.js's font id for the run (resolved to bold or not by {@link PageRuns.boldFonts}). */
  font: string;
  /** pdf.js saw the end of a line after this run. */
  endOfLine: boolean;
}

export interface PageRuns {
  page: number;
  runs: TextRun[];
  /** Font ids known to be bold (or black); unknown fonts count as regular. */
  boldFonts: ReadonlySet<string>;
}

/** A visual line of one page. */
export interface Line {
  page: number;
  text: string;
  x: number;
  y: number;
  /** Right edge of the last run. */
  right: number;
  /** The size most of the line's characters are set in. */
  size: number;
  /** Most of the line's characters are in a bold font. */
  bold: boolean;
}

interface Paragraph {
  page: number;
  lines: Line[];
  size: number;
  bold: boolean;
  /** Set apart from what precedes it by a wide gap (or the top of the page). */
  spaced: boolean;
}

/** Sizes within this many points are the same size (rounding in producers' transforms). */
const SIZE_TOLERANCE = 0.6;
/** A heading by size is at least this much larger than the body text. */
const HEADING_SIZE_RATIO = 1.08;
/** Headings are short: at most this many characters and lines. */
const HEADING_MAX_CHARS = 120;
const HEADING_MAX_LINES = 2;
/** A paragraph break is a line gap at least this many times the usual line spacing. */
const PARAGRAPH_GAP_RATIO = 1.35;
/** A numbered heading: "1.", "2.3", "2.3.1", "IV.", "A.", "Section 3", "Розділ 2", "Article 5:". */
const NUMBERED_HEADING =
  /^(?:(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?)|(?:[IVX]{1,5}\.)|(?:[A-Z]\.)|(?:(?:section|chapter|part|article|розділ|глава|стаття|частина|раздел|статья|часть)\s+[\dIVX]+[.:]?))\s+\S/iu;
/** Page furniture: a bare page number, "Page 3", "Page 3 of 9", "- 3 -", "3 / 9". */
const PAGE_NUMBER =
  /^(?:[-–—]\s*)?(?:(?:page|p\.|стор\.?|сторінка|стр\.?|страница)\s*)?\d{1,4}(?:\s*(?:\/|of|з|из)\s*\d{1,4})?(?:\s*[-–—])?$/iu;
const ENDS_SENTENCE = /[.!?;,:…]["'”»)]?$/u;

/** The value below which `fraction` of `values` lie (0 for none). */
function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * fraction)]!;
}

/** Groups one page's runs into lines: a run on another baseline starts a new line. */
export function pageLines(page: PageRuns): Line[] {
  const lines: Line[] = [];
  type Acc = { runs: TextRun[]; y: number };
  let current: Acc | null = null;
  const close = () => {
    if (!current) return;
    const line = lineOf(page, current.runs);
    if (line) lines.push(line);
    current = null;
  };
  for (const run of page.runs) {
    if (!run.text) {
      if (run.endOfLine) close();
      continue;
    }
    const acc = current as Acc | null;
    if (acc && Math.abs(acc.y - run.y) > Math.max(run.size, 1) * 0.5) close();
    if (!current) current = { runs: [], y: run.y };
    (current as Acc).runs.push(run);
    if (run.endOfLine) close();
  }
  close();
  return lines;
}

function lineOf(page: PageRuns, runs: readonly TextRun[]): Line | null {
  const sorted = [...runs].sort((a, b) => a.x - b.x);
  let text = '';
  let right = Number.NEGATIVE_INFINITY;
  const bySize = new Map<number, number>();
  let boldChars = 0;
  let chars = 0;
  for (const run of sorted) {
    // A gap wider than a sixth of the font size is a space the producer left out of the strings.
    if (text && !/\s$/.test(text) && !/^\s/.test(run.text) && run.x - right > run.size * 0.17) text += ' ';
    text += run.text;
    right = Math.max(right, run.x + run.width);
    const count = run.text.replace(/\s/g, '').length;
    const size = Math.round(run.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + count);
    if (page.boldFonts.has(run.font)) boldChars += count;
    chars += count;
  }
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return null;
  const size = [...bySize.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  return {
    page: page.page,
    text: clean,
    x: sorted[0]!.x,
    y: sorted[0]!.y,
    right,
    size,
    bold: chars > 0 && boldChars / chars > 0.6,
  };
}

/** The body text size: the size most characters of the document are set in. */
export function bodySize(lines: readonly Line[]): number {
  const bySize = new Map<number, number>();
  for (const line of lines) bySize.set(line.size, (bySize.get(line.size) ?? 0) + line.text.length);
  return [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

/**
 * Drops running headers and footers: a page's first or last line that is a
 * page number, or that recurs (digits aside) at the same height on most pages
 * (on both pages of a two-page document, when set smaller than the body text).
 */
function withoutFurniture(pages: readonly Line[][]): Line[][] {
  const counts = new Map<string, number>();
  const key = (line: Line) => `${Math.round(line.y / 4)}|${line.text.replace(/\d+/g, '#')}`;
  const edges = (lines: readonly Line[]) =>
    [lines[0], lines.at(-1)].filter((l): l is Line => l !== undefined);
  for (const lines of pages)
    for (const k of new Set(edges(lines).map(key))) counts.set(k, (counts.get(k) ?? 0) + 1);
  // Two pages are little evidence: there, only a line set smaller than the body text counts.
  const body = bodySize(pages.flat());
  const repeated = (line: Line) =>
    (pages.length >= 3 || (pages.length === 2 && line.size < body - SIZE_TOLERANCE)) &&
    (counts.get(key(line)) ?? 0) >= Math.max(2, pages.length * 0.6);
  return pages.map((lines) => {
    const [first, last] = [lines[0], lines.at(-1)];
    return lines.filter(
      (line) => !((line === first || line === last) && (PAGE_NUMBER.test(line.text) || repeated(line))),
    );
  });
}

const sameStyle = (a: Line, b: Line) => Math.abs(a.size - b.size) <= SIZE_TOLERANCE && a.bold === b.bold;

/** Lines into paragraphs: a wide vertical gap, a change of size or weight, or a list marker starts one. */
function paragraphs(pages: readonly Line[][], body: number): Paragraph[] {
  // The usual distance between consecutive body lines (leading); 1.2 × size when unknown.
  const steps: number[] = [];
  for (const lines of pages) {
    for (let i = 1; i < lines.length; i++) {
      const [a, b] = [lines[i - 1]!, lines[i]!];
      const step = a.y - b.y;
      if (step > 0 && Math.abs(a.size - body) <= SIZE_TOLERANCE && sameStyle(a, b)) steps.push(step);
    }
  }
  // A low percentile, not the median: in a document of short paragraphs most steps are gaps.
  const leading = percentile(steps, 0.2) || body * 1.2;
  const out: Paragraph[] = [];
  for (const lines of pages) {
    let current: Paragraph | null = null;
    let previous: Line | null = null;
    for (const line of lines) {
      const step = previous ? previous.y - line.y : Number.POSITIVE_INFINITY;
      // Larger type has a proportionally larger line spacing.
      const expected = Math.max(leading * (line.size / Math.max(body, 1)), line.size * 1.2, leading);
      const gap = previous ? step < 0 || step > expected * PARAGRAPH_GAP_RATIO : true;
      const breaks =
        !current ||
        gap ||
        !sameStyle(previous!, line) ||
        LIST_ITEM.test(line.text) ||
        // The previous line ended a sentence well short of the text width: a paragraph without spacing.
        (ENDS_SENTENCE.test(previous!.text) && previous!.right < maxRight(current) - body * 4);
      if (breaks) {
        current = { page: line.page, lines: [line], size: line.size, bold: line.bold, spaced: gap };
        out.push(current);
      } else current!.lines.push(line);
      previous = line;
    }
  }
  return out;
}

const maxRight = (paragraph: Paragraph) => Math.max(...paragraph.lines.map((l) => l.right));

/** Joins a paragraph's lines into running text, rejoining words hyphenated across lines. */
function paragraphText(paragraph: Paragraph): string {
  return paragraph.lines
    .map((l) => l.text)
    .join('\n')
    .replace(/(\p{L})-\n(?=\p{Ll})/gu, '$1')
    .replace(/\n/g, ' ');
}

type HeadingKind = 'size' | 'bold' | 'numbered' | null;

function headingKind(
  paragraph: Paragraph,
  text: string,
  body: number,
  next: Paragraph | undefined,
): HeadingKind {
  if (text.length > HEADING_MAX_CHARS || paragraph.lines.length > HEADING_MAX_LINES) return null;
  if (LIST_ITEM.test(text) && !NUMBERED_HEADING.test(text)) return null;
  if (!/\p{L}/u.test(text)) return null;
  const endsSentence = /[.!?;,]$/.test(text) && !/^\S+\.$/.test(text);
  if (paragraph.size >= body * HEADING_SIZE_RATIO && !endsSentence) return 'size';
  // Below here the line is body-sized: it must be followed by body text to be a heading.
  const bodyFollows =
    next !== undefined &&
    !next.bold &&
    Math.abs(next.size - body) <= SIZE_TOLERANCE &&
    next.page >= paragraph.page;
  if (!bodyFollows || endsSentence || paragraph.size < body - SIZE_TOLERANCE) return null;
  if (paragraph.bold) return 'bold';
  // "1. Submit the form" in a numbered procedure is a list item, not a heading: a numbered
  // heading is one short line set apart by a gap above (or the page top).
  if (NUMBERED_HEADING.test(text) && text.length <= 80 && paragraph.lines.length === 1 && paragraph.spaced) {
    return 'numbered';
  }
  return null;
}

/**
 * Blocks of a PDF from its pages' text runs: headings (levels from their
 * sizes), paragraphs and list items, each stamped with its page. Running
 * headers, footers and page numbers are dropped.
 */
export function layoutBlocks(pages: readonly PageRuns[]): Block[] {
  const lines = withoutFurniture(pages.map(pageLines));
  const body = bodySize(lines.flat());
  const paras = paragraphs(lines, body);
  const texts = paras.map(paragraphText);
  const kinds = paras.map((p, i) => headingKind(p, texts[i]!, body, paras[i + 1]));
  // A numbered line counts only when the document numbers at least two headings that way;
  // a lone "1. Fill in the form" is a list item.
  const numbered = kinds.filter((k) => k === 'numbered').length;
  if (numbered < 2) {
    for (let i = 0; i < kinds.length; i++) if (kinds[i] === 'numbered') kinds[i] = null;
  }
  // Levels: distinct heading sizes, largest first; bold or numbered body-size headings come after.
  const sizes: number[] = [];
  paras.forEach((p, i) => {
    if (kinds[i] !== 'size') return;
    if (!sizes.some((s) => Math.abs(s - p.size) <= SIZE_TOLERANCE)) sizes.push(p.size);
  });
  sizes.sort((a, b) => b - a);
  const levelOf = (p: Paragraph, text: string): number => {
    const bySize = sizes.findIndex((s) => Math.abs(s - p.size) <= SIZE_TOLERANCE);
    const base = bySize >= 0 ? bySize + 1 : sizes.length + 1;
    // Without size tiers, the numbering depth ("2" → 1, "2.1" → 2) tells the level.
    if (sizes.length === 0) {
      const depth = /^(\d{1,2}(?:\.\d{1,2}){0,3})/.exec(text)?.[1]?.split('.').length;
      if (depth) return Math.min(6, depth);
    }
    return Math.min(6, base);
  };
  const blocks: Block[] = [];
  paras.forEach((p, i) => {
    const text = texts[i]!;
    if (kinds[i]) {
      blocks.push({ kind: 'heading', level: levelOf(p, text), text, page: p.page });
      return;
    }
    const previous = blocks.at(-1);
    // A paragraph the page break cut in two (no sentence end, same style, next page) is joined again.
    const continues =
      previous?.kind === 'paragraph' &&
      previous.page === p.page - 1 &&
      i > 0 &&
      paras[i - 1]!.page === p.page - 1 &&
      sameStyle(paras[i - 1]!.lines.at(-1)!, p.lines[0]!) &&
      !ENDS_SENTENCE.test(previous.text) &&
      !LIST_ITEM.test(text);
    if (continues) {
      previous.text = `${previous.text} ${text}`;
      return;
    }
    blocks.push({
      kind: 'paragraph',
      text,
      page: p.page,
      ...(LIST_ITEM.test(text) ? { unit: 'list-item' } : {}),
    });
  });
  return blocks;
}

/**
 * Pages where font weights could change the reading: a line at body size or larger with
 * no closing punctuation after the end of a sentence (or at the top of the
 * page), which may be a bold heading. Font weights cost pdf.js a full parse
 * of the page's drawing, so pdf.ts resolves them on these pages only.
 */
export function pagesNeedingWeights(pages: readonly PageRuns[]): number[] {
  const lines = pages.map(pageLines);
  const body = bodySize(lines.flat());
  return pages
    .filter((_, i) =>
      lines[i]!.some((line, j) => {
        const previous = lines[i]![j - 1];
        return (
          line.size >= body - SIZE_TOLERANCE &&
          line.text.length <= HEADING_MAX_CHARS &&
          /\p{L}/u.test(line.text) &&
          !ENDS_SENTENCE.test(line.text) &&
          (!previous || ENDS_SENTENCE.test(previous.text))
        );
      }),
    )
    .map((page) => page.page);
}
