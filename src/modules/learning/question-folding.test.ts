import { describe, expect, it } from 'vitest';
import {
  answerDocument,
  cosineSimilarity,
  FOLD_SIMILARITY,
  foldTarget,
  normalizeQuestion,
} from './question-folding.js';

describe('normalizeQuestion', () => {
  it('folds case, punctuation, repeated spaces and compatibility forms', () => {
    expect(normalizeQuestion('  How MANY vacation days,   do I get?? ')).toBe(
      'how many vacation days do i get',
    );
    expect(normalizeQuestion('How many vacation days do I get')).toBe('how many vacation days do i get');
    // Full-width letters and the ligature read as their plain forms (NFKC).
    expect(normalizeQuestion('Ｈｏｗ many ﬁles?')).toBe('how many files');
    // Lower-casing without a locale: the Turkish dotted capital I is not special.
    expect(normalizeQuestion('ISTANBUL İZMİR')).toBe(normalizeQuestion('istanbul İzmİr'));
    expect(normalizeQuestion('Скільки днів відпустки? — Відповідь!')).toBe(
      'скільки днів відпустки відповідь',
    );
    expect(normalizeQuestion('?!…')).toBe('');
  });
});

describe('foldTarget', () => {
  const row = (id: string, normalizedQuestion: string, embedding: number[] | null, embedder = 'e:3') => ({
    id,
    normalizedQuestion,
    embedding,
    embedder,
  });

  it('prefers an equal normalised question, else the most similar embedding at or above the line', () => {
    const candidates = [
      row('far', 'a', [0, 1, 0]),
      row('near', 'b', [1, 0.2, 0]),
      row('nearest', 'c', [1, 0.1, 0]),
      row('equal', 'same', [0, 0, 1]),
    ];
    expect(
      foldTarget({ normalizedQuestion: 'same', embedding: [1, 0, 0], embedder: 'e:3' }, candidates)?.id,
    ).toBe('equal');
    expect(
      foldTarget({ normalizedQuestion: 'x', embedding: [1, 0, 0], embedder: 'e:3' }, candidates)?.id,
    ).toBe('nearest');
  });

  it('never folds across embedders, without an embedding, or below 0.95', () => {
    const below = Math.sqrt(1 / FOLD_SIMILARITY ** 2 - 1) * 1.01; // cosine just under the line
    const candidates = [row('other-embedder', 'a', [1, 0, 0], 'f:3'), row('below', 'b', [1, below, 0])];
    expect(cosineSimilarity([1, 0, 0], [1, below, 0])).toBeLessThan(FOLD_SIMILARITY);
    expect(
      foldTarget({ normalizedQuestion: 'x', embedding: [1, 0, 0], embedder: 'e:3' }, candidates),
    ).toBeNull();
    expect(foldTarget({ normalizedQuestion: 'x', embedding: null, embedder: null }, candidates)).toBeNull();
    const at = Math.sqrt(1 / FOLD_SIMILARITY ** 2 - 1) * 0.99;
    expect(
      foldTarget({ normalizedQuestion: 'x', embedding: [1, 0, 0], embedder: 'e:3' }, [
        row('at', 'b', [1, at, 0]),
      ])?.id,
    ).toBe('at');
  });

  it('reads vectors of different lengths or all zeros as unrelated', () => {
    expect(cosineSimilarity([1, 0], [1, 0, 0])).toBe(0);
    expect(cosineSimilarity([0, 0], [0, 0])).toBe(0);
    expect(cosineSimilarity([2, 0], [5, 0])).toBeCloseTo(1, 12);
  });
});

describe('answerDocument', () => {
  it('titles the document with the question cut at 80 characters and keeps it whole in the heading', () => {
    const long = `${'Why '.repeat(30)}?`;
    const { title, markdown } = answerDocument(`  ${long}\n`, ' Because. ');
    expect(title.length).toBe(3 + 80);
    expect(title.startsWith('Q: Why Why')).toBe(true);
    expect(title.endsWith('…')).toBe(true);
    expect(markdown).toBe(`# Q: ${long.trim()}\n\nBecause.\n`);
    expect(answerDocument('How many days?', 'Ten.').title).toBe('Q: How many days?');
  });
});
