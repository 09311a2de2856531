import { describe, expect, it } from 'vitest';
import { createExtractiveResponder, guessLanguage, splitSentences } from './extractive-responder.js';

const responder = createExtractiveResponder();

describe('extractive responder', () => {
  it('answers with the passage sentences that share the most words with the question', async () => {
    const result = await responder.complete({
      messages: [{ role: 'user', content: 'How many vacation days do employees get?' }],
      passages: [
        {
          id: 'a',
          title: 'Leave policy',
          content: 'The office opens at nine. Employees get 24 vacation days per year. Parking is free.',
          score: 0.8,
        },
        { id: 'b', title: 'Canteen', content: 'Lunch is served from noon.', score: 0.3 },
      ],
    });
    expect(result.text).toContain('Employees get 24 vacation days per year.');
    expect(result.text).toContain('Sources: Leave policy');
    expect(result).toMatchObject({ provider: 'offline', model: 'extractive' });
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
  });

  it('says nothing was found, in the question language, without passages', async () => {
    const en = await responder.complete({ messages: [{ role: 'user', content: 'Where is the file?' }] });
    const uk = await responder.complete({
      messages: [{ role: 'user', content: 'Де мій звіт і відпустка?' }],
    });
    const ru = await responder.complete({ messages: [{ role: 'user', content: 'Где мой отчёт?' }] });
    expect(en.text).toMatch(/could not find/);
    expect(uk.text).toMatch(/не знайшов/);
    expect(ru.text).toMatch(/не нашёл/);
  });

  it('guesses the language and splits sentences', () => {
    expect(guessLanguage('Привіт, як справи?')).toBe('uk');
    expect(guessLanguage('Привет, как дела?')).toBe('ru');
    expect(guessLanguage('Hello')).toBe('en');
    expect(splitSentences('One. Two!  Three?\nFour')).toEqual(['One.', 'Two!', 'Three?', 'Four']);
  });
});
