import { describe, expect, it } from 'vitest';
import { applyGlossary } from './glossary.plugin.js';

describe('glossary', () => {
  it('rewrites whole words in any case and any script, every occurrence', () => {
    const { text, rewritten, flagged } = applyGlossary(
      'Гроші: ЗАРПЛАТА і зарплата, але не зарплатами. Salary, salaryman.',
      [
        { term: 'зарплата', replacement: 'винагорода', action: 'rewrite' },
        { term: 'salary', replacement: 'pay', action: 'rewrite' },
      ],
    );
    expect(text).toBe('Гроші: винагорода і винагорода, але не зарплатами. pay, salaryman.');
    expect(rewritten).toEqual(['зарплата', 'salary']);
    expect(flagged).toEqual([]);
  });

  it('flags terms still in the reply after the rewrites, phrases across any whitespace', () => {
    const { flagged } = applyGlossary('Ask about the legal\n advice desk.', [
      { term: 'legal advice', action: 'flag' },
      { term: 'desk', replacement: 'office', action: 'rewrite' },
      { term: 'office', action: 'flag' },
      { term: 'lawyer', action: 'flag' },
    ]);
    expect(flagged).toEqual(['legal advice', 'office']);
  });

  it('quotes terms with pattern characters literally', () => {
    expect(
      applyGlossary('Use C++ (or C#) here.', [{ term: 'C++', replacement: 'C plus plus', action: 'rewrite' }])
        .text,
    ).toBe('Use C plus plus (or C#) here.');
  });
});
