import { describe, expect, it } from 'vitest';
import { finalScore, VERBATIM_FLOOR, verbatimCheck } from './scoring.js';

const repeatsSentence = (message: string, chunkContent: string) => verbatimCheck(message)(chunkContent);

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
