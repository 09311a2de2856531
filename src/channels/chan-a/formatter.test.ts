import { describe, expect, it } from 'vitest';
import { formatForChanA } from './formatter.js';

describe('formatForChanA', () => {
  it('writes bold, italic, strikethrough and inline code in the platform’s markers', () => {
    expect(formatForChanA('Take **24 days**, _not_ ~~20~~; see `HR-12`.')).toBe(
      'Take *24 days*, _not_ ~20~; see `HR-12`.',
    );
    expect(formatForChanA('*single star italic* and __double underscore bold__')).toBe(
      '_single star italic_ and *double underscore bold*',
    );
  });

  it('nests emphasis and keeps the markers against the words', () => {
    expect(formatForChanA('***both*** and **bold _italic_ inside**')).toBe(
      '_*both*_ and *bold _italic_ inside*',
    );
    expect(formatForChanA('** spaced bold **')).toContain('spaced bold');
    expect(formatForChanA('a **b ** c')).not.toMatch(/\s\*\s/);
  });

  it('keeps code blocks verbatim between triple backticks, Markdown inside untouched', () => {
    const text = formatForChanA('Run:\n\n```bash\nnpm run **build**\n\necho _x_\n```\n\nDone.');
    expect(text).toBe('Run:\n\n```\nnpm run **build**\n\necho _x_\n```\n\nDone.');
  });

  it('writes lists as bullets and numbers, nested ones indented', () => {
    expect(formatForChanA('- one\n- two **b**\n  - inner\n\n3. third\n4. fourth')).toBe(
      '• one\n• two *b*\n  • inner\n\n3. third\n4. fourth',
    );
    expect(formatForChanA('- [x] done\n- [ ] open')).toBe('• ☑ done\n• ☐ open');
  });

  it('writes links as "text (url)", a bare address once, headings as bold lines', () => {
    expect(formatForChanA('See [the policy](https://hr.example/policy) or https://hr.example.')).toBe(
      'See the policy (https://hr.example/policy) or https://hr.example.',
    );
    expect(formatForChanA('# Vacation **rules**\n\nText')).toBe('*Vacation rules*\n\nText');
    expect(formatForChanA('## Sick leave')).toBe('*Sick leave*');
  });

  it('quotes, tables, rules and HTML come out as plain readable text', () => {
    expect(formatForChanA('> quoted **line**\n> second')).toBe('> quoted *line*\n> second');
    expect(formatForChanA('| Kind | Days |\n|---|---|\n| Paid | 24 |')).toBe('*Kind | Days*\nPaid | 24');
    expect(formatForChanA('a\n\n---\n\nb')).toBe('a\n\n———\n\nb');
    expect(formatForChanA('x <b>y</b> z')).toBe('x y z');
    expect(formatForChanA('line one  \nline two')).toBe('line one\nline two');
  });

  it('leaves plain text and Cyrillic alone', () => {
    expect(formatForChanA('Привіт! Ви маєте 24 дні відпустки.')).toBe('Привіт! Ви маєте 24 дні відпустки.');
    expect(formatForChanA('')).toBe('');
  });
});
