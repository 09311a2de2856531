import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitMessage } from './split-message.js';

const words = (n: number, word = 'word') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('splitMessage', () => {
  it('keeps a text that fits as one part, and an empty one as none', () => {
    expect(splitMessage('  Short reply.  ', 4096)).toEqual(['Short reply.']);
    expect(splitMessage(' \n ', 10)).toEqual([]);
  });

  it('cuts on paragraph boundaries first, packing whole paragraphs', () => {
    const paragraphs = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40), 'd'.repeat(40)];
    const parts = splitMessage(paragraphs.join('\n\n'), 90);
    expect(parts).toEqual([`${paragraphs[0]}\n\n${paragraphs[1]}`, `${paragraphs[2]}\n\n${paragraphs[3]}`]);
    expect(parts.join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('cuts a long paragraph at lines, then sentences, then words, then inside a word', () => {
    expect(splitMessage('first line here\nsecond line here', 20)).toEqual([
      'first line here',
      'second line here',
    ]);
    expect(splitMessage('One sentence here. Another one there! Third?', 20)).toEqual([
      'One sentence here.',
      'Another one there!',
      'Third?',
    ]);
    expect(splitMessage('alpha beta gamma delta', 11)).toEqual(['alpha beta', 'gamma delta']);
    expect(splitMessage('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('never cuts a code block that fits in a part, even with blank lines inside', () => {
    const code = '```\nline 1\n\nline 2\n```';
    const text = `${'p'.repeat(30)}\n\n${code}\n\n${'q'.repeat(30)}`;
    const parts = splitMessage(text, code.length + 2);
    expect(parts).toContain(code);
    expect(parts.every((part) => part.length <= code.length + 2)).toBe(true);
  });

  it('cuts a code block longer than a part at its lines and fences every piece again', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `const value${i} = ${i};`);
    const parts = splitMessage(`\`\`\`\n${lines.join('\n')}\n\`\`\``, 120);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(120);
      expect(part.startsWith('```\n') && part.endsWith('\n```')).toBe(true);
    }
    expect(parts.flatMap((part) => part.split('\n').filter((l) => l !== '```'))).toEqual(lines);
  });

  it('measures parts the way the platform does (channel B counts escaped text)', () => {
    const escaped = (text: string) => text.replace(/[_*[\]()~`>#+\-=|{}.!]/g, '\\$&').length;
    const parts = splitMessage(words(40, 'a.b'), 50, { measure: escaped });
    for (const part of parts) expect(escaped(part)).toBeLessThanOrEqual(50);
    expect(parts.join(' ')).toBe(words(40, 'a.b'));
  });

  it('does not break a surrogate pair when it must cut inside a word', () => {
    const parts = splitMessage('😀'.repeat(7), 4);
    expect(parts.join('')).toBe('😀'.repeat(7));
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4);
  });

  it('for any text: every part fits, parts keep the order, no word is lost', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,30}$/), { minLength: 1, maxLength: 200 }),
        fc.array(fc.constantFrom(' ', '\n', '\n\n', '. '), { minLength: 200, maxLength: 200 }),
        fc.integer({ min: 5, max: 200 }),
        (tokens, separators, limit) => {
          const text = tokens.map((t, i) => `${t}${separators[i]}`).join('');
          const parts = splitMessage(text, limit);
          for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
          const joined = parts.join(' ').replace(/[\s.]+/g, '');
          expect(joined).toBe(text.replace(/[\s.]+/g, ''));
        },
      ),
    );
  });

  it('refuses a limit that is not a positive whole number', () => {
    expect(() => splitMessage('x', 0)).toThrow(/positive integer/);
  });
});
