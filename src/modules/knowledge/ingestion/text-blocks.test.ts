import { describe, expect, it } from 'vitest';
import { htmlStringBlocks, webPageBlocks } from './html.js';
import { markdownBlocks, plainTextBlocks } from './text-blocks.js';

describe('plainTextBlocks', () => {
  it('splits paragraphs on blank lines and normalises line endings and spaces', () => {
    expect(plainTextBlocks('One  line\r\nsame paragraph\r\n\r\n\r\nSecond\u0000 one\n')).toEqual([
      { kind: 'paragraph', text: 'One line\nsame paragraph' },
      { kind: 'paragraph', text: 'Second one' },
    ]);
  });

  it('unwraps laid-out lines and hyphenated words, and stamps the page', () => {
    expect(plainTextBlocks('Receipts are need-\ned for every\nclaim.', { page: 3, unwrap: true })).toEqual([
      { kind: 'paragraph', text: 'Receipts are needed for every claim.', page: 3 },
    ]);
  });
});

describe('markdownBlocks', () => {
  it('reads ATX and setext headings, paragraphs and fenced code', () => {
    const markdown = [
      '# Handbook',
      '',
      'Intro line one',
      'intro line two.',
      '',
      'Leave',
      '-----',
      'Annual leave is 24 days.',
      '',
      '```',
      '# not a heading',
      '```',
      '### Sick leave ###',
      '- bring a certificate',
      '- within three days',
    ].join('\n');
    expect(markdownBlocks(markdown)).toEqual([
      { kind: 'heading', level: 1, text: 'Handbook' },
      { kind: 'paragraph', text: 'Intro line one\nintro line two.' },
      { kind: 'heading', level: 2, text: 'Leave' },
      { kind: 'paragraph', text: 'Annual leave is 24 days.' },
      { kind: 'paragraph', text: '# not a heading' },
      { kind: 'heading', level: 3, text: 'Sick leave' },
      { kind: 'paragraph', text: '- bring a certificate', unit: 'list-item' },
      { kind: 'paragraph', text: '- within three days', unit: 'list-item' },
    ]);
  });

  it('makes each list item (with its wrapped lines) and each table row a block of its own', () => {
    const markdown = [
      'You may take leave for:',
      '1. a wedding, up to',
      '   three days;',
      '2) a house move.',
      '',
      '| Grade | Days |',
      '|:------|-----:|',
      '| A | 25 |',
      '| B | 28 |',
    ].join('\n');
    expect(markdownBlocks(markdown)).toEqual([
      { kind: 'paragraph', text: 'You may take leave for:' },
      { kind: 'paragraph', text: '1. a wedding, up to three days;', unit: 'list-item' },
      { kind: 'paragraph', text: '2) a house move.', unit: 'list-item' },
      { kind: 'paragraph', text: 'Grade | Days', unit: 'table-row' },
      { kind: 'paragraph', text: 'A | 25', unit: 'table-row' },
      { kind: 'paragraph', text: 'B | 28', unit: 'table-row' },
    ]);
  });
});

describe('plainTextBlocks lists', () => {
  it('splits bulleted lines out of a paragraph, keeping the lead-in line', () => {
    expect(plainTextBlocks('Bring:\n• a passport\n• two photos', { page: 2, unwrap: true })).toEqual([
      { kind: 'paragraph', text: 'Bring:', page: 2 },
      { kind: 'paragraph', text: '• a passport', page: 2, unit: 'list-item' },
      { kind: 'paragraph', text: '• two photos', page: 2, unit: 'list-item' },
    ]);
  });
});

describe('htmlStringBlocks', () => {
  it('reads headings, paragraphs, list items and table rows in order', () => {
    const html =
      '<h1>Policy</h1><p>First <strong>bold</strong> text.</p><ul><li>one</li><li>two</li></ul>' +
      '<table><tr><th>Day</th><th>Hours</th></tr><tr><td>Monday</td><td>8</td></tr></table><div>Loose text</div>';
    expect(htmlStringBlocks(html)).toEqual([
      { kind: 'heading', level: 1, text: 'Policy' },
      { kind: 'paragraph', text: 'First bold text.' },
      { kind: 'paragraph', text: 'one', unit: 'list-item' },
      { kind: 'paragraph', text: 'two', unit: 'list-item' },
      { kind: 'paragraph', text: 'Day | Hours', unit: 'table-row' },
      { kind: 'paragraph', text: 'Monday | 8', unit: 'table-row' },
      { kind: 'paragraph', text: 'Loose text' },
    ]);
  });
});

describe('htmlStringBlocks nested lists', () => {
  it('keeps an item that holds a nested list as a list item, and each nested item too', () => {
    expect(
      htmlStringBlocks('<ul><li>Leave<ul><li>annual</li><li>sick</li></ul></li><li>Pay</li></ul>'),
    ).toEqual([
      { kind: 'paragraph', text: 'Leave', unit: 'list-item' },
      { kind: 'paragraph', text: 'annual', unit: 'list-item' },
      { kind: 'paragraph', text: 'sick', unit: 'list-item' },
      { kind: 'paragraph', text: 'Pay', unit: 'list-item' },
    ]);
  });
});

describe('webPageBlocks', () => {
  it('keeps the main text of a page and drops navigation, scripts and footers', () => {
    const article = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Paragraph ${i} of the remote work policy explains in plenty of words how staff may work from home.</p>`,
    ).join('');
    const html = `<!doctype html><html><head><title>Remote work</title><script>var tracking = 1;</script></head>
      <body><nav><a href="/">Home</a><a href="/about">About us</a></nav>
      <article><h2>Remote work policy</h2>${article}</article>
      <footer>Copyright footer text</footer></body></html>`;
    const page = webPageBlocks(html);
    expect(page.title).toBe('Remote work');
    const text = page.blocks.map((b) => b.text).join('\n');
    expect(text).toContain('Paragraph 0 of the remote work policy');
    expect(text).toContain('Paragraph 5 of the remote work policy');
    expect(text).not.toContain('About us');
    expect(text).not.toContain('tracking');
    expect(text).not.toContain('Copyright footer');
  });

  it('falls back to the whole body for a page Readability does not take', () => {
    const page = webPageBlocks('<html><body><p>Tiny page.</p></body></html>');
    expect(page.blocks).toEqual([{ kind: 'paragraph', text: 'Tiny page.' }]);
  });
});
