import { describe, expect, it } from 'vitest';
import {
  analyseText,
  guessCyrillic,
  keywordIndexEntry,
  MAX_QUERY_TERMS,
  queryKeywordTerms,
} from './text-analysis.js';

describe('queryKeywordTerms: language-aware analysis', () => {
  it('stems English, so other forms of a word meet', () => {
    expect(queryKeywordTerms('Leaves requested')).toEqual(queryKeywordTerms('leave request'));
    expect(queryKeywordTerms('reimbursement policies')).toEqual(['reimburs', 'polici']);
  });

  it('stems Ukrainian words (і ї є ґ) with the Ukrainian stemmer', () => {
    expect(queryKeywordTerms('відпустки')).toEqual(queryKeywordTerms('відпусткою'));
    expect(queryKeywordTerms('відпустки')).toEqual(['відпустк']);
  });

  it('stems Russian words with the Russian stemmer and folds ё to е', () => {
    expect(queryKeywordTerms('отпуска')).toEqual(queryKeywordTerms('отпуском'));
    expect(queryKeywordTerms('учёт')).toEqual(queryKeywordTerms('учет'));
  });

  it('stems an undecided Cyrillic word both ways, so either language meets it', () => {
    expect(guessCyrillic('ноутбука')).toBe('both');
    const terms = queryKeywordTerms('ноутбука');
    expect(terms).toContain('ноутбук');
    // In a text that is plainly Ukrainian, the same word takes the Ukrainian stem only.
    expect(guessCyrillic('Ноутбука немає в офісі, він у відпустці')).toBe('uk');
  });

  it('reads mixed scripts word by word', () => {
    expect(queryKeywordTerms('VPN доступ for laptops')).toEqual([
      'vpn',
      ...queryKeywordTerms('доступ'),
      'laptop',
    ]);
  });

  it('drops English, Ukrainian and Russian stop words unless nothing else is left', () => {
    expect(queryKeywordTerms('What is the leave policy?')).toEqual(['leav', 'polici']);
    expect(queryKeywordTerms('Скільки днів відпустки в мене?')).not.toContain('в');
    expect(queryKeywordTerms('Что такое отпуск и как его взять?')).not.toContain('как');
    expect(queryKeywordTerms('what is it')).toHaveLength(3);
    // Capitals make a name of a stop word: "IT" the department.
    expect(queryKeywordTerms('Ask IT')).toContain('it');
  });

  it('answers only letters and digits, distinct, at most MAX_QUERY_TERMS', () => {
    expect(queryKeywordTerms("Vacation & (days) | !vacation's 24 :*")).toEqual(['vacat', 'day', '24']);
    expect(queryKeywordTerms('?!')).toEqual([]);
    const long = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    expect(queryKeywordTerms(long)).toHaveLength(MAX_QUERY_TERMS);
  });
});

describe('keywordIndexEntry', () => {
  it('stores each term with its positions (tf) and counts the indexed words', () => {
    const entry = keywordIndexEntry('Laptops and laptop bags: the laptop policy.');
    expect(entry.terms).toBe("'laptop':1,3,6 'bag':4 'polici':7");
    expect(entry.termCount).toBe(5);
  });

  it('skips overlong runs (hashes, base64) but keeps counting positions', () => {
    const words = analyseText(`${'x'.repeat(100)} invoice`);
    expect(words).toEqual([{ stems: ['invoic'], position: 2 }]);
    expect(keywordIndexEntry('').termCount).toBe(0);
  });
});
