import { describe, expect, it } from 'vitest';
import { finalScore, MAX_QUERY_TERMS, queryTerms, repeatsSentence, VERBATIM_FLOOR } from './scoring.js';

describe('repeatsSentence', () => {
  const chunk = 'Remote work is allowed two days a week. Ask your team lead first! Equipment comes from IT.';

  it('is true when the message repeats a chunk sentence, whatever the case and punctuation', () => {
    expect(repeatsSentence('remote work is allowed two days a week', chunk)).toBe(true);
    expect(repeatsSentence('Hi! "Remote work is allowed two days a week" — is that right?', chunk)).toBe(
      true,
    );
  });

  it('is true when the chunk contains the whole message of four words or more', () => {
    expect(repeatsSentence('allowed two days a', chunk)).toBe(true);
  });

  it('is false for short messages, reordered words and sentences under four words', () => {
    expect(repeatsSentence('remote work', chunk)).toBe(false);
    expect(repeatsSentence('two days a week remote work is allowed', chunk)).toBe(false);
    expect(repeatsSentence('Please: Equipment comes from IT. Thanks a lot', chunk)).toBe(true);
    expect(repeatsSentence('Hello there. Ok.', 'Ok. Hello there.')).toBe(false);
  });

  it('reads Cyrillic text', () => {
    expect(
      repeatsSentence(
        'Відпустка триває двадцять чотири дні',
        'Правила. Відпустка триває двадцять чотири дні.',
      ),
    ).toBe(true);
  });
});

describe('finalScore', () => {
  it('keeps the blended score without a repeat', () => {
    expect(finalScore(0.42, false)).toBe(0.42);
  });

  it('lifts a repeat to at least the floor and keeps the order among lifted chunks', () => {
    expect(finalScore(0, true)).toBe(VERBATIM_FLOOR);
    expect(finalScore(0.5, true)).toBeCloseTo(0.95, 10);
    expect(finalScore(1, true)).toBe(1);
    expect(finalScore(0.6, true)).toBeGreaterThan(finalScore(0.3, true));
  });
});

describe('queryTerms', () => {
  it('answers distinct lower-case letter and digit runs without tsquery syntax', () => {
    expect(queryTerms("Vacation & (days) | !vacation's 24 ДНІ:*")).toEqual([
      'vacation',
      'days',
      's',
      '24',
      'дні',
    ]);
    expect(queryTerms('?!')).toEqual([]);
  });

  it('drops English, Ukrainian and Russian function words unless nothing else is left', () => {
    expect(queryTerms('What is the leave policy?')).toEqual(['leave', 'policy']);
    expect(queryTerms('Скільки днів відпустки в мене?')).toEqual(['днів', 'відпустки']);
    expect(queryTerms('Что такое отпуск и как его взять?')).toEqual(['такое', 'отпуск', 'взять']);
    expect(queryTerms('what is it')).toEqual(['what', 'is', 'it']);
  });

  it(`keeps at most ${MAX_QUERY_TERMS} terms`, () => {
    const long = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    expect(queryTerms(long)).toHaveLength(MAX_QUERY_TERMS);
  });
});
