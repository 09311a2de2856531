import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { markdownToDocx } from './markdown-docx.js';

const MARKDOWN = [
  '# Service agreement',
  '',
  'Between **Acme Ltd** and *Olena Kovalenko*, signed on 2027\\-01\\-10 & sealed.',
  '',
  '## Terms',
  '',
  '- First **term**',
  '  - Nested detail',
  '- Second term',
  '',
  '1. Pay',
  '2. Deliver',
  '',
  '| Item | Price |',
  '|------|------:|',
  '| Audit | 2500 |',
  '',
  '> Quoted clause',
  '',
  '```',
  'code line',
  '```',
  '',
  '<div onclick="x()">Raw <b>block</b><script>steal()</script></div>',
].join('\n');

describe('markdownToDocx', () => {
  it('writes a DOCX that mammoth reads back with headings, emphasis, lists and a table', async () => {
    const bytes = await markdownToDocx(MARKDOWN, 'Agreement');
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const { value: html } = await mammoth.convertToHtml({ buffer: bytes });
    expect(html).toContain('<h1>Service agreement</h1>');
    expect(html).toContain('<h2>Terms</h2>');
    expect(html).toContain('<strong>Acme Ltd</strong>');
    expect(html).toContain('<em>Olena Kovalenko</em>');
    expect(html).toContain('signed on 2027-01-10 &amp; sealed.');
    expect(html).toMatch(
      /<ul><li>First <strong>term<\/strong><ul><li>Nested detail<\/li><\/ul><\/li><li>Second term<\/li><\/ul>/,
    );
    expect(html).toContain('<ol><li>Pay</li><li>Deliver</li></ol>');
    expect(html).toMatch(/<table>.*<p><strong>Item<\/strong><\/p>.*<p>Audit<\/p>.*<p>2500<\/p>.*<\/table>/);
    const { value: text } = await mammoth.extractRawText({ buffer: bytes });
    expect(text).toContain('Quoted clause');
    expect(text).toContain('code line');
    expect(text).toContain('Raw block');
    expect(text).not.toMatch(/<|steal|onclick/);
  });

  it('writes an empty document for empty Markdown', async () => {
    const { value } = await mammoth.extractRawText({ buffer: await markdownToDocx('', 'Empty') });
    expect(value.trim()).toBe('');
  });
});
