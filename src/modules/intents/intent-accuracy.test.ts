import { describe, expect, it } from 'vitest';
import { evaluateIntents } from '../../../eval/intents.js';

/**
 * The regression gate of `npm run eval:intents`: the team's training
 * phrases seeded through the real services, the development sets classified
 * with the offline embedder (eval/intents/, docs/intents.md). The floors are
 * a little under the figures measured on 2026-11-28, so a change that loses
 * ground fails here. The paraphrase test half is not read here: it is read
 * once, for the figures in docs/quality.md.
 */
describe('intent accuracy on the development sets', () => {
  it('first split (test.json): ≥ 0.88 of in-domain messages right, every language ≥ 0.78, ≥ 0.95 of out-of-domain ones unknown', async () => {
    const report = await evaluateIntents('test');
    expect(report.answers.length).toBeGreaterThanOrEqual(300);
    expect(report.outOfDomainUnknown.total).toBeGreaterThanOrEqual(60);
    expect(report.inDomain.rate).toBeGreaterThanOrEqual(0.88);
    expect(report.outOfDomainUnknown.rate).toBeGreaterThanOrEqual(0.95);
    for (const language of ['en', 'uk', 'ru', 'mixed']) {
      expect(report.byLanguage[language]!.rate, language).toBeGreaterThanOrEqual(0.78);
    }
  }, 300_000);

  it('paraphrase dev half: ≥ 0.6 of in-domain messages right, long questions ≥ 0.5, ≥ 0.9 of out-of-domain ones unknown', async () => {
    const report = await evaluateIntents('paraphrases-dev');
    expect(report.answers.length).toBeGreaterThanOrEqual(140);
    expect(report.inDomain.rate).toBeGreaterThanOrEqual(0.6);
    expect(report.byKind.long!.rate).toBeGreaterThanOrEqual(0.5);
    expect(report.outOfDomainUnknown.rate).toBeGreaterThanOrEqual(0.9);
  }, 300_000);
});
