import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Document, HeadingLevel, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { afterAll, describe, expect, it } from 'vitest';
import { type HandbookBlock, handbookPdf } from '../../../test/fixtures/documents.js';
import { type Chunk, chunkBlocks } from './chunking.js';
import { createDecoder } from './ingestion/decoder.js';
import { extractFile } from './ingestion/extract.js';

/**
 * One handbook written three ways (PDF laid out as a word processor would,
 * DOCX with heading styles, Markdown): each must chunk by its headings, one
 * passage per section, with the heading path as context.
 */
const HANDBOOK = {
  title: 'Northwind Staff Handbook',
  sections: [
    {
      heading: 'Welcome',
      level: 1,
      body: [
        'Northwind Traders employs about two hundred people in Leeds and Porto. This handbook explains how employment works here.',
        'Where your contract and this handbook differ, the contract wins.',
      ],
    },
    {
      heading: 'Working hours',
      level: 1,
      body: [
        'A full-time week is thirty-seven and a half hours, Monday to Friday. Core hours run from ten to four.',
      ],
    },
    {
      heading: 'Remote work',
      level: 2,
      body: [
        'You may work from home up to three days a week once your probation ends. Agree the days with your line manager in advance.',
      ],
    },
    {
      heading: 'Annual leave',
      level: 1,
      body: [
        'Every employee receives twenty-six days of paid annual leave per year, plus public holidays. Book leave in the HR portal at least two weeks ahead.',
      ],
    },
    {
      heading: 'Carry-over',
      level: 2,
      body: [
        'Up to five unused days may be carried into the next year. Carried days expire on the last day of March.',
      ],
    },
    {
      heading: 'Sick leave',
      level: 1,
      body: [
        'Tell your manager before ten on the first day of absence. From the fourth day a doctor’s certificate is needed.',
      ],
    },
    {
      heading: 'Pay and expenses',
      level: 1,
      body: [
        'Salaries are paid on the twenty-fifth of each month by bank transfer. Expense claims go through the finance app within thirty days.',
      ],
    },
    {
      heading: 'Leaving Northwind',
      level: 1,
      body: [
        'The notice period is one month during probation and three months after it. Return your laptop and badge on your last day.',
      ],
    },
  ],
} as const;

const firstWord = (text: string) => text.split(/\s+/)[0]!.replace(/[^\p{L}\p{N}-]/gu, '');
const lastWord = (text: string) =>
  text
    .split(/\s+/)
    .at(-1)!
    .replace(/[^\p{L}\p{N}-]/gu, '');
/** Each chunk as [heading path, first word, last word]: the boundaries. */
const boundaries = (chunks: readonly Chunk[]) =>
  chunks.map((c) => [c.metadata.headingPath.join(' › '), firstWord(c.content), lastWord(c.content)]);

/** The expected boundaries: one chunk per section, its path through the levels above it. */
function expectedBoundaries(): string[][] {
  const path: string[] = [];
  return HANDBOOK.sections.map((section) => {
    path.length = section.level - 1;
    path.push(section.heading);
    const text = section.body.join(' ');
    return [path.join(' › '), firstWord(text), lastWord(text)];
  });
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'aos-handbook-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const decoder = createDecoder({
  dataDir,
  limits: {
    timeoutMs: 60_000,
    memoryMb: 512,
    maxInflatedBytes: 10 * 1024 * 1024,
    maxPixels: 4_000_000,
    maxPages: 20,
  },
});

describe('handbooks chunk by their headings', () => {
  it('a multi-page PDF: headings found from the text layer’s font sizes and weights', async () => {
    const blocks: HandbookBlock[] = HANDBOOK.sections.flatMap((section) => [
      { kind: 'heading' as const, level: section.level, text: section.heading },
      ...section.body.map((text) => ({ kind: 'paragraph' as const, text })),
      // A longer closing paragraph per section, so the handbook runs over two pages.
      {
        kind: 'paragraph' as const,
        text: `Questions about ${section.heading.toLowerCase()} go to the People team, who answer within two working days; forms, examples and the full policy text are on the intranet`,
      },
    ]);
    const pdf = handbookPdf(blocks, { title: HANDBOOK.title });
    expect((await extractFile('pdf', pdf, { decoder })).details).toMatchObject({ pages: 2 });
    const extraction = await extractFile('pdf', pdf, { decoder });
    expect(extraction.title).toBe(HANDBOOK.title);
    const chunks = chunkBlocks(extraction.blocks);
    const expected = expectedBoundaries().map(([headingPath, first]) => [headingPath, first, 'intranet']);
    expect(boundaries(chunks)).toEqual(expected);
    // No heading text is glued into a passage.
    for (const chunk of chunks) {
      for (const section of HANDBOOK.sections) expect(chunk.content.startsWith(section.heading)).toBe(false);
    }
  }, 60_000);

  it('a PDF over several pages keeps page numbers and joins a paragraph the page break cut', async () => {
    const long = Array.from(
      { length: 14 },
      (_, i) => `Rule ${i + 1} of the travel policy says that trains are booked through the travel desk.`,
    ).join(' ');
    const blocks: HandbookBlock[] = [
      { kind: 'heading', level: 1, text: 'Travel' },
      ...Array.from({ length: 5 }, () => ({ kind: 'paragraph' as const, text: long })),
      { kind: 'heading', level: 1, text: 'Security' },
      { kind: 'paragraph', text: 'Lock your screen whenever you leave your desk.' },
    ];
    const extraction = await extractFile('pdf', handbookPdf(blocks), { decoder });
    expect(extraction.details).toMatchObject({ pages: 2 });
    const paragraphs = extraction.blocks.filter((b) => b.kind === 'paragraph');
    // Five paragraphs of travel and one of security, none cut at the page break.
    expect(paragraphs.map((p) => p.text)).toEqual([long, long, long, long, long, blocks.at(-1)!.text]);
    const chunks = chunkBlocks(extraction.blocks);
    expect(chunks.at(-1)).toMatchObject({ metadata: { headingPath: ['Security'], page: 2 } });
    expect(chunks.filter((c) => c.metadata.headingPath[0] === 'Travel').length).toBeGreaterThan(1);
  }, 60_000);

  it('a DOCX: heading styles, a bulleted list and a table', async () => {
    const numbering = {
      config: [
        {
          reference: 'bullets',
          levels: [{ level: 0, format: LevelFormat.BULLET, text: '•' }],
        },
      ],
    };
    const headingLevels = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2] as const;
    const children: (Paragraph | Table)[] = HANDBOOK.sections.flatMap((section) => [
      new Paragraph({ text: section.heading, heading: headingLevels[section.level - 1] }),
      ...section.body.map((text) => new Paragraph({ text })),
    ]);
    children.push(
      new Paragraph({ text: 'Equipment', heading: HeadingLevel.HEADING_1 }),
      new Paragraph({ text: 'Every new starter receives:' }),
      new Paragraph({ text: 'a laptop with a charger', numbering: { reference: 'bullets', level: 0 } }),
      new Paragraph({ text: 'a headset for calls', numbering: { reference: 'bullets', level: 0 } }),
      new Table({
        rows: [
          ['Item', 'Replaced every'],
          ['Laptop', 'four years'],
          ['Headset', 'two years'],
        ].map(
          (cells) =>
            new TableRow({
              children: cells.map((text) => new TableCell({ children: [new Paragraph(text)] })),
            }),
        ),
      }),
    );
    const file = await Packer.toBuffer(new Document({ numbering, sections: [{ children }] }));
    const chunks = chunkBlocks((await extractFile('docx', file, { decoder })).blocks);
    expect(boundaries(chunks)).toEqual([...expectedBoundaries(), ['Equipment', 'Every', 'years']]);
    // The list and the table stay together, one item or row per line.
    expect(chunks.at(-1)!.content).toBe(
      'Every new starter receives:\n\na laptop with a charger\na headset for calls\n\n' +
        'Item | Replaced every\nLaptop | four years\nHeadset | two years',
    );
  }, 60_000);

  it('a DOCX whose heading styles carry localised names (Заголовок 1)', async () => {
    const file = await Packer.toBuffer(
      new Document({
        styles: {
          paragraphStyles: [
            { id: 'a1', name: 'Заголовок 1', basedOn: 'Normal', run: { bold: true, size: 32 } },
            { id: 'a2', name: 'Заголовок 2', basedOn: 'Normal', run: { bold: true, size: 28 } },
          ],
        },
        sections: [
          {
            children: [
              new Paragraph({ text: 'Відпустка', style: 'a1' }),
              new Paragraph({ text: 'Щорічна відпустка триває двадцять чотири дні.' }),
              new Paragraph({ text: 'Перенесення', style: 'a2' }),
              new Paragraph({ text: 'Невикористані дні переносяться до березня.' }),
            ],
          },
        ],
      }),
    );
    const chunks = chunkBlocks((await extractFile('docx', file, { decoder })).blocks);
    expect(boundaries(chunks)).toEqual([
      ['Відпустка', 'Щорічна', 'дні'],
      ['Відпустка › Перенесення', 'Невикористані', 'березня'],
    ]);
  }, 60_000);

  it('a Markdown handbook: # headings, a list and a table', async () => {
    const markdown = [
      ...HANDBOOK.sections.flatMap((section) => [
        `${'#'.repeat(section.level)} ${section.heading}`,
        '',
        ...section.body.flatMap((text) => [text, '']),
      ]),
      '# Equipment',
      '',
      'Every new starter receives:',
      '',
      '- a laptop with a charger',
      '- a headset for calls',
      '',
      '| Item | Replaced every |',
      '|------|----------------|',
      '| Laptop | four years |',
      '| Headset | two years |',
    ].join('\n');
    const chunks = chunkBlocks((await extractFile('md', Buffer.from(markdown), { decoder })).blocks);
    expect(boundaries(chunks)).toEqual([...expectedBoundaries(), ['Equipment', 'Every', 'years']]);
    expect(chunks.at(-1)!.content).toBe(
      'Every new starter receives:\n\n- a laptop with a charger\n- a headset for calls\n\n' +
        'Item | Replaced every\nLaptop | four years\nHeadset | two years',
    );
  });
});
