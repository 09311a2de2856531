import { describe, expect, it } from 'vitest';
import { answerFound, judgeCase, runTotals } from './correctness.js';

describe('answerFound', () => {
  it('finds the phrase whatever the case and spacing', () => {
    expect(answerFound('You get Twenty  Four\ndays of leave.', 'twenty four days')).toBe(true);
    expect(answerFound('Відпустка — 24 календарні дні.', 'відпустка — 24 КАЛЕНДАРНІ дні')).toBe(true);
  });

  it('accepts every number and key word of the phrase in another order', () => {
    expect(answerFound('Annual leave: employees get 25 working days.', '25 days of annual leave')).toBe(true);
    expect(answerFound('Salary is paid on the 5th and the 20th.', 'paid on 5 and 20')).toBe(true);
    expect(answerFound('Salary is paid on the 5th.', 'paid on 5 and 20')).toBe(false);
    expect(answerFound('Зарплата выплачивается 5 и 20 числа.', 'выплачивается 5 и 20')).toBe(true);
    expect(answerFound('Reimbursed within 7,5 days.', 'reimbursed 7.5')).toBe(true);
  });

  it('misses a number or a key word that is not there', () => {
    expect(answerFound('Employees get 24 days of leave.', '25 days')).toBe(false);
    expect(answerFound('Employees get 25 days of leave.', '25 days of sick leave')).toBe(false);
    expect(answerFound('Anything at all', 'a b')).toBe(false);
  });
});

describe('judgeCase', () => {
  const none = { expectedAnswer: null, expectedDocumentId: null, expectedIntent: null };
  const seen = {
    draft: 'You get 24 days.',
    confidence: 0.8,
    sourceDocumentIds: ['doc-a', 'doc-b'],
    predictedIntent: 'vacation',
  };

  it('counts a confident draft with every expectation met as correct', () => {
    expect(
      judgeCase(
        { expectedAnswer: '24 days', expectedDocumentId: 'doc-a', expectedIntent: 'Vacation' },
        seen,
        0.7,
      ),
    ).toEqual({
      fallback: false,
      answerMatches: true,
      topSourceMatches: true,
      documentCited: true,
      intentMatches: true,
      correct: true,
    });
  });

  it('never counts a draft under the line, or one without sources, as correct', () => {
    expect(judgeCase(none, { ...seen, confidence: 0.69 }, 0.7)).toMatchObject({
      fallback: true,
      correct: false,
    });
    expect(judgeCase(none, { ...seen, sourceDocumentIds: [] }, 0.7)).toMatchObject({
      fallback: true,
      correct: false,
    });
    expect(judgeCase(none, seen, 0.7)).toMatchObject({ fallback: false, correct: true, answerMatches: null });
  });

  it('fails a case on any expectation that does not hold', () => {
    const second = judgeCase({ ...none, expectedDocumentId: 'doc-b' }, seen, 0.7);
    expect(second).toMatchObject({ topSourceMatches: false, documentCited: true, correct: false });
    expect(judgeCase({ ...none, expectedIntent: 'payroll' }, seen, 0.7)).toMatchObject({
      intentMatches: false,
      correct: false,
    });
    expect(judgeCase({ ...none, expectedAnswer: '25 days' }, seen, 0.7)).toMatchObject({
      answerMatches: false,
      correct: false,
    });
  });
});

describe('runTotals', () => {
  it('answers shares over the cases that state each expectation, null when none does', () => {
    const none = { expectedAnswer: null, expectedDocumentId: null, expectedIntent: null };
    const seen = { draft: 'x', confidence: 0.9, sourceDocumentIds: ['d'], predictedIntent: 'a' };
    const totals = runTotals([
      { verdict: judgeCase({ ...none, expectedDocumentId: 'd' }, seen, 0.7), failed: false },
      { verdict: judgeCase({ ...none, expectedDocumentId: 'e' }, seen, 0.7), failed: false },
      { verdict: judgeCase(none, { ...seen, confidence: 0.1 }, 0.7), failed: false },
    ]);
    expect(totals).toEqual({
      cases: 3,
      correct: 1,
      accuracy: 0.3333,
      withExpectedDocument: 2,
      top1SourceAccuracy: 0.5,
      withExpectedIntent: 0,
      intentAccuracy: null,
      fallbacks: 1,
      errors: 0,
    });
    expect(runTotals([])).toMatchObject({ cases: 0, accuracy: null });
  });
});
