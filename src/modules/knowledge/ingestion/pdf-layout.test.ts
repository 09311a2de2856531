import { describe, expect, it } from 'vitest';
import { layoutBlocks, type PageRuns, pagesNeedingWeights, type TextRun } from './pdf-layout.js';

/** A page of lines laid out top-down: each entry one line (a run), `gap` adds space above it. */
function page(
  number: number,
  lines: Array<{ text: string; size?: number; font?: string; gap?: number }>,
  bold: string[] = [],
): PageRuns {
  let y = 760;
  const runs: TextRun[] = lines.map((line) => {
    const size = line.size ?? 10;
    y -= (line.gap ?? 0) + size * 1.2;
    return {
      text: line.text,
      x: 56,
      y,
      width: line.text.length * size * 0.5,
      size,
      font: line.font ?? 'body',
      endOfLine: true,
    };
  });
  return { page: number, runs, boldFonts: new Set(bold) };
}

const body = (text: string, gap = 0) => ({ text, gap });
const sentence = 'Staff book their leave in the portal and their manager approves it within a week.';

describe('layoutBlocks', () => {
  it('marks larger lines as headings, levelled by size, and joins wrapped lines into paragraphs', () => {
    const blocks = layoutBlocks([
      page(1, [
        { text: 'Staff Handbook', size: 20 },
        { text: 'Leave', size: 14, gap: 8 },
        body('Annual leave is twenty-five days a year. Part-timers', 6),
        body('get a pro-rata share of it.'),
        { text: 'Carry-over', size: 12, gap: 8 },
        body('Five days may be carried over.', 4),
      ]),
    ]);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Staff Handbook', page: 1 },
      { kind: 'heading', level: 2, text: 'Leave', page: 1 },
      {
        kind: 'paragraph',
        text: 'Annual leave is twenty-five days a year. Part-timers get a pro-rata share of it.',
        page: 1,
      },
      { kind: 'heading', level: 3, text: 'Carry-over', page: 1 },
      { kind: 'paragraph', text: 'Five days may be carried over.', page: 1 },
    ]);
  });

  it('marks a bold body-size line standing before body text as a heading, but not bold prose', () => {
    const blocks = layoutBlocks([
      page(
        1,
        [
          { text: 'Expenses', font: 'bold' },
          body(sentence, 2),
          { text: 'Receipts are always required.', font: 'bold', gap: 6 },
          body(sentence, 2),
        ],
        ['bold'],
      ),
    ]);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'Expenses'],
      ['paragraph', sentence],
      ['paragraph', 'Receipts are always required.'],
      ['paragraph', sentence],
    ]);
  });

  it('reads numbered headings set in body type, levelled by their numbering, and leaves a numbered list alone', () => {
    const blocks = layoutBlocks([
      page(1, [
        body('1. General'),
        body(sentence, 6),
        body('1.1 Scope', 6),
        body(sentence, 6),
        body('2. Leave', 6),
        body('To book leave:', 6),
        body('1. open the portal;', 0),
        body('2. pick the days.', 0),
      ]),
    ]);
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: '1. General', page: 1 },
      { kind: 'paragraph', text: sentence, page: 1 },
      { kind: 'heading', level: 2, text: '1.1 Scope', page: 1 },
      { kind: 'paragraph', text: sentence, page: 1 },
      { kind: 'heading', level: 1, text: '2. Leave', page: 1 },
      { kind: 'paragraph', text: 'To book leave:', page: 1 },
      { kind: 'paragraph', text: '1. open the portal;', page: 1, unit: 'list-item' },
      { kind: 'paragraph', text: '2. pick the days.', page: 1, unit: 'list-item' },
    ]);
  });

  it('drops page numbers and running headers, and joins a paragraph a page break cut', () => {
    const pages = [1, 2, 3].map((n) =>
      page(n, [
        { text: 'Northwind confidential', size: 8 },
        body(n === 2 ? 'and it ends on this page.' : `Paragraph on page ${n} runs on`, 20),
        body(`${n}`, 40),
      ]),
    );
    const blocks = layoutBlocks(pages);
    expect(blocks).toEqual([
      { kind: 'paragraph', text: 'Paragraph on page 1 runs on and it ends on this page.', page: 1 },
      { kind: 'paragraph', text: 'Paragraph on page 3 runs on', page: 3 },
    ]);
  });

  it('drops a running header repeated on both pages of a two-page document', () => {
    const blocks = layoutBlocks(
      [1, 2].map((n) =>
        page(n, [{ text: 'Acme Ltd - Leave policy', size: 8 }, body(`Rule ${n}: ${sentence}`, 20)]),
      ),
    );
    // The body lines are kept, though they too sit at the same place on both pages.
    expect(blocks.map((b) => b.text)).toEqual([`Rule 1: ${sentence}`, `Rule 2: ${sentence}`]);
  });

  it('puts spaces between runs the producer placed apart without one', () => {
    const runs: TextRun[] = [
      { text: 'Ann', x: 56, y: 700, width: 15, size: 10, font: 'body', endOfLine: false },
      { text: 'ual', x: 71.2, y: 700, width: 15, size: 10, font: 'body', endOfLine: false },
      { text: 'leave', x: 89, y: 700, width: 24, size: 10, font: 'body', endOfLine: false },
      { text: 'is 25 days.', x: 116, y: 700.2, width: 40, size: 10, font: 'body', endOfLine: true },
    ];
    expect(layoutBlocks([{ page: 1, runs, boldFonts: new Set() }])).toEqual([
      { kind: 'paragraph', text: 'Annual leave is 25 days.', page: 1 },
    ]);
  });
});

describe('pagesNeedingWeights', () => {
  it('asks for font weights only on pages with a short unpunctuated line after a sentence', () => {
    const pages = [
      page(1, [body(sentence), body(sentence)]),
      page(2, [body(sentence), body('Expenses', 6), body(sentence)]),
    ];
    expect(pagesNeedingWeights(pages)).toEqual([2]);
  });
});
