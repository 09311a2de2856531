import { describe, expect, it } from 'vitest';
import { guessLanguage } from './language.js';

describe('guessLanguage', () => {
  it('reads Latin text as English and telling letters as their language', () => {
    expect(guessLanguage('How many days of annual leave do I get?')).toBe('en');
    expect(guessLanguage('Скільки днів відпустки на рік?')).toBe('uk');
    expect(guessLanguage('Сколько дней отпуска в году? Объясните.')).toBe('ru');
  });

  it('reads Ukrainian written without і, ї, є or ґ as Ukrainian by its words', () => {
    expect(guessLanguage('коли виплачують зарплату')).toBe('uk');
    expect(guessLanguage('що робити, як загубив ноутбук')).toBe('uk');
    expect(guessLanguage('де можна взяти пропуск')).toBe('uk');
    expect(guessLanguage('мене цикавить, чи буде премия')).toBe('uk');
  });

  it('keeps Russian without telling letters Russian', () => {
    expect(guessLanguage('когда выплачивают зарплату')).toBe('ru');
    expect(guessLanguage('что делать, если потерял ноутбук')).toBe('ru');
    expect(guessLanguage('где можно взять пропуск')).toBe('ru');
    expect(guessLanguage('Привет, как дела?')).toBe('ru');
  });

  it('lets telling letters outweigh a shared word', () => {
    expect(guessLanguage('Привіт, як справи?')).toBe('uk');
    expect(guessLanguage('Где взять довідку?')).toBe('uk');
  });

  it('falls back to Russian for Cyrillic without any evidence, as before', () => {
    expect(guessLanguage('ноутбук')).toBe('ru');
  });
});
