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
});
