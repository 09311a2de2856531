import { describe, expect, it } from 'vitest';
import { createLocalEmbedder, LOCAL_EMBEDDER_VERSION, lexicalWords } from './local-embedder.js';

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

  it('reads a text of ASCII alone as the Unicode steps do', () => {
    const texts = [
      "Don't DO it`s e-mail_42x; O'Neil's ' quote ` tick'",
      'Remote work: 2 days/week. Equipment comes from IT!\n\nTabs\tand   spaces',
      "x'y a'1 1'a '' ``a`` it''s",
    ];
    expect(lexicalWords(texts[0]!)).toEqual([
      'dont',
      'do',
      'its',
      'e',
      'mail',
      '42x',
      'oneils',
      'quote',
      'tick',
    ]);
    // A letter outside ASCII sends the same text through the Unicode steps: the words before it agree.
    for (const text of texts) expect(lexicalWords(`${text} é`)).toEqual([...lexicalWords(text), 'é']);
  });

  it('keeps typos, transliteration and inflection close, unrelated text far', () => {
    const close = (a: string, b: string) => cosine(embedder.embedOne(a), embedder.embedOne(b));
    expect(close('how many vacation days are left', 'how many vacaton days are lfet')).toBeGreaterThan(0.5);
    expect(close('хочу в отпуск', 'hochu v otpusk')).toBeGreaterThan(0.7);
    expect(close('як оформити лікарняний', 'yak oformyty likarnyanyi')).toBeGreaterThan(0.7);
    expect(close('Як оформити лікарняний?', 'лікарняного')).toBeGreaterThan(0.3);
    expect(close('how do I reset my password', 'how do I order a laptop')).toBeLessThan(0.15);
    expect(close('забыл пароль', 'какая погода завтра')).toBeLessThan(0.1);
  });

  it('weighs function words down', () => {
    // Both share only "how do I": far apart. Sharing "password": close.
    const a = embedder.embedOne('how do I change my password');
    expect(cosine(a, embedder.embedOne('how do I cook rice'))).toBeLessThan(0.15);
    expect(cosine(a, embedder.embedOne('password'))).toBeGreaterThan(0.5);
  });

  it('names its version and the dimension in it', () => {
    expect(embedder.version).toBe(`${LOCAL_EMBEDDER_VERSION}:1536`);
    expect(createLocalEmbedder(64).version).toBe(`${LOCAL_EMBEDDER_VERSION}:64`);
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
