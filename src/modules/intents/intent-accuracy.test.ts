import { describe, expect, it } from 'vitest';
import { evaluateIntents, INTENT_THRESHOLDS } from '../../../eval/intents.js';

/**
 * The quality gate of `npm run eval:intents`: the team's training phrases
 * seeded through the real services, the held-out split classified with the
 * offline embedder (eval/intents/, docs/intents.md).
 */
describe('intent accuracy on the held-out split', () => {
  it('classifies ≥ 0.9 of in-domain messages right and answers unknown for ≥ 0.9 of out-of-domain ones', async () => {
    const report = await evaluateIntents();
    expect(report.answers.length).toBeGreaterThanOrEqual(300);
    expect(report.outOfDomainUnknown.total).toBeGreaterThanOrEqual(60);
    expect(report.inDomain.rate).toBeGreaterThanOrEqual(INTENT_THRESHOLDS.accuracy);
    expect(report.outOfDomainUnknown.rate).toBeGreaterThanOrEqual(INTENT_THRESHOLDS.outOfDomainUnknown);
    // Every language of the split is served, not only the average.
    for (const language of ['en', 'uk', 'ru', 'mixed']) {
      expect(report.byLanguage[language]!.rate, language).toBeGreaterThanOrEqual(0.8);
    }
  }, 300_000);
});
