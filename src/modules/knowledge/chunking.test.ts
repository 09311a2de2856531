import { describe, expect, it } from 'vitest';
import { type Block, chunkBlocks, estimateTokens, splitSentences, splitToFit } from './chunking.js';

const sentence = (i: number) =>
  `Sentence number ${i} tells the reader one more useful fact about travel expenses.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ');

describe('estimateTokens', () => {
  it('counts about four ASCII characters per token and ignores whitespace', () => {
    expect(estimateTokens('abcd'.repeat(10))).toBe(10);
    expect(estimateTokens('abcd    abcd')).toBe(2);
    expect(estimateTokens('')).toBe(0);
  });

  it('counts Cyrillic denser than Latin', () => {
    const latin = estimateTokens('vacation lasts twenty four days');
    const cyrillic = estimateTokens('відпустка триває двадцять чотири дні');
    expect(cyrillic).toBeGreaterThan(latin);
  });
});

describe('splitSentences', () => {
  it('splits Ukrainian and English text into sentences', () => {
    expect(splitSentences('Привіт. Як справи? Добре! Fine.')).toEqual([
      'Привіт.',
      'Як справи?',
      'Добре!',
      'Fine.',
    ]);
  });
});

describe('splitToFit', () => {
  it('keeps text that fits whole', () => {
    expect(splitToFit('Short text.', 50)).toEqual(['Short text.']);
  });

  it('splits by sentences, then words, then characters, each piece within the limit', () => {
    const hash = 'x'.repeat(400);
    const pieces = splitToFit(`${paragraph(0, 10)} ${hash}`, 40);
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces) expect(estimateTokens(piece)).toBeLessThanOrEqual(40);
    expect(pieces.join('').replace(/\s/g, '')).toBe(`${paragraph(0, 10)} ${hash}`.replace(/\s/g, ''));
  });
});

describe('chunkBlocks', () => {
  it('keeps a short document in one chunk with its heading path', () => {
    const blocks: Block[] = [
      { kind: 'heading', level: 1, text: 'Handbook' },
      { kind: 'heading', level: 2, text: 'Leave' },
      { kind: 'paragraph', text: 'Annual leave is 24 days.' },
      { kind: 'paragraph', text: 'Ask your manager first.' },
    ];
    expect(chunkBlocks(blocks)).toEqual([
      {
        content: 'Annual leave is 24 days.\n\nAsk your manager first.',
        tokenCount: estimateTokens('Annual leave is 24 days.\n\nAsk your manager first.'),
        metadata: { headingPath: ['Handbook', 'Leave'] },
      },
    ]);
  });

  it('starts a new chunk at each heading and keeps the heading path by level', () => {
    const chunks = chunkBlocks([
      { kind: 'heading', level: 1, text: 'Handbook' },
      { kind: 'paragraph', text: 'Welcome.' },
      { kind: 'heading', level: 2, text: 'Leave' },
      { kind: 'paragraph', text: 'Leave text.' },
      { kind: 'heading', level: 3, text: 'Sick leave' },
      { kind: 'paragraph', text: 'Sick text.' },
      { kind: 'heading', level: 2, text: 'Travel' },
      { kind: 'paragraph', text: 'Travel text.' },
    ]);
    expect(chunks.map((c) => [c.content, c.metadata.headingPath])).toEqual([
      ['Welcome.', ['Handbook']],
      ['Leave text.', ['Handbook', 'Leave']],
      ['Sick text.', ['Handbook', 'Leave', 'Sick leave']],
      ['Travel text.', ['Handbook', 'Travel']],
    ]);
  });

  it('splits a long section into chunks within the target, each repeating the last sentence of the one before', () => {
    const options = { targetTokens: 100, overlapTokens: 30 };
    const chunks = chunkBlocks([{ kind: 'paragraph', text: paragraph(0, 40) }], options);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(options.targetTokens);
    for (let i = 1; i < chunks.length; i++) {
      const previousLast = splitSentences(chunks[i - 1]!.content).at(-1)!;
      expect(chunks[i]!.content.startsWith(previousLast)).toBe(true);
    }
    // Nothing is lost: every sentence is in some chunk.
    const all = chunks.map((c) => c.content).join(' ');
    for (let i = 0; i < 40; i++) expect(all).toContain(sentence(i));
  });

  it('never carries overlap across a heading', () => {
    const options = { targetTokens: 100, overlapTokens: 30 };
    const chunks = chunkBlocks(
      [
        { kind: 'heading', level: 1, text: 'One' },
        { kind: 'paragraph', text: paragraph(0, 12) },
        { kind: 'heading', level: 1, text: 'Two' },
        { kind: 'paragraph', text: 'Only this.' },
      ],
      options,
    );
    expect(chunks.at(-1)).toMatchObject({ content: 'Only this.', metadata: { headingPath: ['Two'] } });
  });

  it('records the page a chunk starts on and the page it ends on', () => {
    const chunks = chunkBlocks([
      { kind: 'paragraph', text: 'First page text.', page: 1 },
      { kind: 'paragraph', text: 'Second page text.', page: 2 },
    ]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.metadata).toEqual({ headingPath: [], page: 1, pageEnd: 2 });
  });

  it('makes no chunk from headings or blank paragraphs alone', () => {
    expect(
      chunkBlocks([
        { kind: 'heading', level: 1, text: 'Title' },
        { kind: 'paragraph', text: '   ' },
      ]),
    ).toEqual([]);
  });

  it('groups list items one per line and never cuts one in half', () => {
    const item = (i: number) => `- Item ${i}: bring the signed form and a copy of the booking to the office.`;
    const options = { targetTokens: 60, overlapTokens: 20 };
    const chunks = chunkBlocks(
      Array.from({ length: 12 }, (_, i): Block => ({ kind: 'paragraph', text: item(i), unit: 'list-item' })),
      options,
    );
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(options.targetTokens);
      // Every line is a whole item.
      for (const line of chunk.content.split('\n')) expect(line).toMatch(/^- Item \d+: .* office\.$/);
    }
    // Every item is somewhere, and a chunk after the first starts with the last item of the one before.
    for (let i = 0; i < 12; i++) expect(chunks.some((c) => c.content.includes(item(i)))).toBe(true);
    expect(chunks[1]!.content.startsWith(chunks[0]!.content.split('\n').at(-1)!)).toBe(true);
  });

  it('repeats a table header row in the chunk that continues the table', () => {
    const rows: Block[] = [
      { kind: 'paragraph', text: 'Grade | Annual leave days | Notice period', unit: 'table-row' },
      ...Array.from(
        { length: 10 },
        (_, i): Block => ({
          kind: 'paragraph',
          text: `G${i} | ${20 + i} days of paid annual leave | ${i + 1} months of notice in writing`,
          unit: 'table-row',
        }),
      ),
    ];
    const chunks = chunkBlocks(rows, { targetTokens: 80, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      const lines = chunk.content.split('\n');
      expect(lines[0]).toBe('Grade | Annual leave days | Notice period');
      expect(lines.every((line) => line.split(' | ').length === 3)).toBe(true);
    }
  });

  it('moves the line that introduces a list to the next chunk with the list', () => {
    const chunks = chunkBlocks(
      [
        { kind: 'paragraph', text: paragraph(0, 4) },
        { kind: 'paragraph', text: 'Leave may be taken for:' },
        { kind: 'paragraph', text: '- a wedding, three days', unit: 'list-item' },
        { kind: 'paragraph', text: '- a house move, one day', unit: 'list-item' },
      ],
      { targetTokens: 75, overlapTokens: 10 },
    );
    expect(chunks.map((c) => c.content)).toEqual([
      paragraph(0, 4),
      'Leave may be taken for:\n\n- a wedding, three days\n- a house move, one day',
    ]);
  });
});
