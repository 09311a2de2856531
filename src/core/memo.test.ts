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

  it('lets the least recently used sixteenth go at once when full', () => {
    const seen: string[] = [];
    const same = memoiseByText((text) => {
      seen.push(text);
      return text;
    }, 32);
    for (let i = 0; i < 32; i++) same(`t${i}`);
    same('t0'); // t0 is now the most recent
    same('new'); // full: t1 and t2, the two least recent, go
    seen.length = 0;
    for (const text of ['t0', 't3', 't31', 'new', 't1', 't2']) same(text);
    expect(seen).toEqual(['t1', 't2']);
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
