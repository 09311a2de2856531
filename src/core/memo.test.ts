import { describe, expect, it } from 'vitest';
import { memoiseByText } from './memo.js';

describe('memoiseByText', () => {
  it('computes a text once and answers the stored value after', () => {
    const seen: string[] = [];
    const length = memoiseByText((text) => {
      seen.push(text);
      return text.length;
    }, 10);
    expect([length('abc'), length('abc'), length('de')]).toEqual([3, 3, 2]);
    expect(seen).toEqual(['abc', 'de']);
  });

  it('drops the least recently used text when full', () => {
    const seen: string[] = [];
    const upper = memoiseByText((text) => {
      seen.push(text);
      return text.toUpperCase();
    }, 2);
    upper('a');
    upper('b');
    upper('a'); // a is now the most recent
    upper('c'); // evicts b
    upper('a');
    upper('b');
    expect(seen).toEqual(['a', 'b', 'c', 'b']);
  });

  it('tells long texts apart that differ in one character, and remembers each', () => {
    const seen: string[] = [];
    const last = memoiseByText((text) => {
      seen.push(text);
      return text.at(-1);
    }, 10);
    const long = 'x'.repeat(2000);
    expect([last(`${long}a`), last(`${long}b`), last(`${long}a`)]).toEqual(['a', 'b', 'a']);
    expect(seen).toHaveLength(2);
  });
});
