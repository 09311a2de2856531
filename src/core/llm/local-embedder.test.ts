import { describe, expect, it } from 'vitest';
import { createLocalEmbedder, lexicalWords } from './local-embedder.js';

const cosine = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * (b[i] ?? 0), 0);
const embedder = createLocalEmbedder(1536);

describe('local embedder', () => {
  it('is deterministic and L2-normalised', () => {
    const a = embedder.embedOne('Refunds are processed within 14 days.');
    expect(a).toEqual(embedder.embedOne('Refunds are processed within 14 days.'));
    expect(a).toHaveLength(1536);
    expect(cosine(a, a)).toBeCloseTo(1, 10);
  });

  it('ignores case, punctuation and invisible characters', () => {
    const a = embedder.embedOne('Refunds are processed within 14 days.');
    const b = embedder.embedOne('REFUNDS  are pro\u200Bcessed, within 14 days');
    expect(cosine(a, b)).toBeCloseTo(1, 10);
  });

  it('reads Cyrillic words and keeps inflected forms close', () => {
    expect(lexicalWords('Відпустка — 24 дні; м’ясо, ёлка')).toEqual([
      'відпустка',
      '24',
      'дні',
      'мясо',
      'елка',
    ]);
    const base = embedder.embedOne('відпустка працівника');
    expect(cosine(base, embedder.embedOne('відпустки працівників'))).toBeGreaterThan(0.4);
    expect(cosine(base, embedder.embedOne('квартальний звіт бухгалтерії'))).toBeLessThan(0.15);
  });

  it('scores a sentence close to a short passage that contains it', () => {
    const sentence = 'Employees get twenty four vacation days a year.';
    const passage = `${sentence} Ask your manager first.`;
    expect(cosine(embedder.embedOne(sentence), embedder.embedOne(passage))).toBeGreaterThan(0.75);
  });

  it('answers a zero vector for text without words', () => {
    expect(embedder.embedOne('?!…').every((v) => v === 0)).toBe(true);
  });

  it('refuses a dimension below 2', () => {
    expect(() => createLocalEmbedder(1)).toThrow(/dimension/);
  });
});
