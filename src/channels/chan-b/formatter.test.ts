import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBotHtml, parseMarkdownV2 } from '../../../test/fakes/chanB-bot-server.js';
import { escapeMarkdownV2, formatForBot } from './formatter.js';

const RESERVED_REPLY = [
  '# Leave (2025) rules!',
  '',
  'You get **24 days** of _paid_ leave ~~23~~ a year: see [the policy (v2)](https://example.com/hr/leave_(v2)?a=1&b=2).',
  'Costs: 1+1=2, 3-2=1; a {b} | c > d < e # f. Done!',
  'Run `grep -e "a_b" *.md` or:',
  '',
  '```bash',
  'echo `date` \\ done_1.2',
  '```',
  '',
  '- first. item',
  '- second **bold** item',
  '  1. nested (one)',
  '',
  '> quoted. text!',
  '',
  '---',
  '',
  'Tom &amp; Jerry \\*not bold\\*',
].join('\n');

describe('formatForBot', () => {
  it('escapes every reserved character so a strict MarkdownV2 parser accepts the reply', () => {
    const text = formatForBot(RESERVED_REPLY, 'MarkdownV2');
    const shown = parseMarkdownV2(text);
    expect(shown).toContain('You get 24 days of paid leave 23 a year: see the policy (v2).');
    expect(shown).toContain('Costs: 1+1=2, 3-2=1; a {b} | c > d < e # f. Done!');
    expect(shown).toContain('grep -e "a_b" *.md');
    expect(shown).toContain('echo `date` \\ done_1.2');
    expect(shown).toContain('Tom & Jerry *not bold*');
  });

  it('keeps bold, italic, strikethrough, code, code blocks and links as MarkdownV2 entities', () => {
    expect(formatForBot('**b** _i_ ~~s~~ `c`', 'MarkdownV2')).toBe('*b* _i_ ~s~ `c`');
    expect(formatForBot('[a.b](https://x.org/p_(1))', 'MarkdownV2')).toBe('[a\\.b](https://x.org/p_(1\\))');
    expect(formatForBot('```js\nlet a = `x`;\n```', 'MarkdownV2')).toBe('```js\nlet a = \\`x\\`;\n```');
    expect(formatForBot('# Title.', 'MarkdownV2')).toBe('*Title\\.*');
    expect(formatForBot('1. one\n2. two', 'MarkdownV2')).toBe('1\\. one\n2\\. two');
  });

  it('separates adjacent italics and flattens nested ones, which MarkdownV2 cannot express', () => {
    const text = formatForBot('*a*_b_ and ***both*** and *x **y *z* y** x*', 'MarkdownV2');
    expect(() => parseMarkdownV2(text)).not.toThrow();
  });

  it('renders the HTML fallback with the Bot API tags and escapes the rest', () => {
    const html = formatForBot(RESERVED_REPLY, 'HTML');
    expect(html).toContain('<b>24 days</b>');
    expect(html).toContain('<i>paid</i>');
    expect(html).toContain('<s>23</s>');
    expect(html).toContain('<a href="https://example.com/hr/leave_(v2)?a=1&amp;b=2">the policy (v2)</a>');
    expect(html).toContain('<pre><code class="language-bash">');
    expect(html).toContain('c &gt; d &lt; e');
    expect(parseBotHtml(html)).toContain('Tom & Jerry *not bold*');
  });

  it('renders plain text without markup', () => {
    const plain = formatForBot('**Hello** [site](https://example.com) `x`', 'plain');
    expect(plain).toBe('Hello site (https://example.com) x');
  });

  it('never leaves an unescaped reserved character in MarkdownV2 for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(parseMarkdownV2(escapeMarkdownV2(text))).toBe(text);
      }),
    );
  });

  it('produces MarkdownV2 a strict parser accepts for arbitrary Markdown-ish input', () => {
    const pieces = fc.constantFrom(
      '*',
      '**',
      '_',
      '`',
      '```',
      '[',
      ']',
      '(',
      ')',
      '~~',
      '.',
      '!',
      '#',
      '\n',
      '\n\n',
      '- ',
      '1. ',
      '> ',
      'a',
      'b c',
      '\\',
      '|',
      '&amp;',
      'https://x.org',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = formatForBot(parts.join(''), 'MarkdownV2');
        expect(() => parseMarkdownV2(text)).not.toThrow();
        expect(() => parseBotHtml(formatForBot(parts.join(''), 'HTML'))).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
