import { describe, expect, it } from 'vitest';
import { expandQuery, MAX_EXPANSION_TERMS } from './query-expansion.js';
import { MAX_QUERY_TERMS, queryKeywordTerms } from './text-analysis.js';

describe('expandQuery', () => {
  it('adds the other names of a workplace concept in all three languages', () => {
    const expanded = expandQuery('How many vacation days do I get?');
    expect(expanded.own).toEqual(queryKeywordTerms('How many vacation days do I get?'));
    for (const term of [...queryKeywordTerms('відпустка'), ...queryKeywordTerms('отпуск')]) {
      expect(expanded.added).toContain(term);
    }
    expect(expanded.terms.slice(0, expanded.own.length)).toEqual(expanded.own);
  });

  it('brings a Ukrainian question to the English and Russian names', () => {
    const { added } = expandQuery('Коли виплачують зарплату?');
    expect(added).toEqual(
      expect.arrayContaining([...queryKeywordTerms('salary'), ...queryKeywordTerms('wages')]),
    );
  });

  it('matches a phrase of several words only as a whole', () => {
    expect(expandQuery('sick leave').added).toEqual(expect.arrayContaining(queryKeywordTerms('лікарняний')));
    // "leave" alone names neither sick leave nor annual leave.
    const { added } = expandQuery('I leave work at six');
    for (const term of [...queryKeywordTerms('лікарняний'), ...queryKeywordTerms('відпустка')]) {
      expect(added).not.toContain(term);
    }
  });

  it('adds nothing to a message without workplace concepts, and never more than the cap', () => {
    expect(expandQuery('quantum chromodynamics lecture').added).toEqual([]);
    const long = expandQuery('salary bonus laptop password vacation expenses hotel parking badge manager');
    expect(long.added.length).toBeLessThanOrEqual(MAX_EXPANSION_TERMS);
    expect(long.terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    expect(new Set(long.terms).size).toBe(long.terms.length);
  });
});
