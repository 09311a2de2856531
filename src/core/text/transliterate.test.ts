import { describe, expect, it } from 'vitest';
import { foldLatin, romaniseCyrillic, soundSkeleton } from './transliterate.js';

describe('soundSkeleton', () => {
  it.each([
    ['відпустка', 'vidpustka'],
    ['отпуск', 'otpusk'],
    ['лікарняний', 'likarnyanyi'],
    ['больничный', 'bolnichnyy'],
    ['больничный', 'bolnichnyi'],
    ['щастя', 'shchastya'],
    ['хочу', 'khochu'],
    ['хочу', 'hochu'],
    ['зарплата', 'zarplata'],
    ['відрядження', 'vidryadzhennya'],
    ['командировка', 'komandirovka'],
  ])('gives %s and its Latin spelling %s one skeleton', (cyrillic, latin) => {
    expect(soundSkeleton(cyrillic)).toBe(soundSkeleton(latin));
  });

  it('keeps different words apart', () => {
    expect(soundSkeleton('пароль')).not.toBe(soundSkeleton('зарплата'));
    expect(soundSkeleton('vacation')).not.toBe(soundSkeleton('vocation'));
  });

  it('romanises Cyrillic letter by letter and leaves other scripts alone', () => {
    expect(romaniseCyrillic('жук і їжак')).toBe('zhuk i yizhak');
    expect(romaniseCyrillic('łódź 東京')).toBe('łódź 東京');
  });

  it('folds common Latin spellings and collapses repeated letters', () => {
    expect(foldLatin('shchuka')).toBe(foldLatin('schuka'));
    expect(foldLatin('password')).toBe('pasvord');
    expect(foldLatin('tsena')).toBe('cena');
    expect(foldLatin('computer')).toBe('komputer');
  });
});
