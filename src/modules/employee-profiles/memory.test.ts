import { describe, expect, it } from 'vitest';
import { FREQUENT_INTENTS_LIMIT, rankIntents, rollingSummary, SUMMARY_MAX_CHARS } from './memory.js';

describe('profile memory', () => {
  it('ranks intents by count, then by recency, capped', () => {
    const at = (n: number) => new Date(2024, 0, n);
    const ranked = rankIntents([
      { intent: 'payroll', count: 2, lastAt: at(1) },
      { intent: 'vacation', count: 5, lastAt: at(2) },
      { intent: 'sick-leave', count: 2, lastAt: at(3) },
      ...Array.from({ length: 6 }, (_, i) => ({ intent: `rare-${i}`, count: 1, lastAt: at(4) })),
    ]);
    expect(ranked.slice(0, 3)).toEqual(['vacation', 'sick-leave', 'payroll']);
    expect(ranked).toHaveLength(FREQUENT_INTENTS_LIMIT);
  });

  it('summarises the latest questions and topics in a bounded text', () => {
    expect(rollingSummary(['How many  vacation days?', 'Is sick leave paid?'], ['vacation'])).toBe(
      'Recently asked: "How many vacation days?"; "Is sick leave paid?". Frequent topics: vacation.',
    );
    expect(rollingSummary([], [])).toBe('');
    const long = rollingSummary(['x'.repeat(500), 'y'.repeat(500), 'z'.repeat(500)], ['a'.repeat(400)]);
    expect(long.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });
});
