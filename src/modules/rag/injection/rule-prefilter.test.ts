import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { foldText } from './normalise.js';
import { leadingLiterals, wordStartPrefixes } from './rule-prefilter.js';
import { B, NOT_NEGATED } from './rule-syntax.js';
import { matchRules } from './rules.js';
import { transliterate } from './transliterate.js';
import { correctTypos } from './typos.js';

describe('rule prefilter', () => {
  it('reads the words a pattern starts with, or gives up', () => {
    expect(leadingLiterals(String.raw`${B}${NOT_NEGATED}(?:ignore|set\s+aside|забу\p{L}*)\s+x`)).toEqual([
      'ignore',
      'set',
      'забу',
    ]);
    // A letter a quantifier makes optional is not required.
    expect(leadingLiterals(`${B}(?:instructions?|prompt)`)).toEqual(['instruction', 'prompt']);
    expect(leadingLiterals(String.raw`${B}(?:a|b)|${B}(?:new\s+rules)`)).toBeUndefined();
    expect(leadingLiterals(String.raw`${B}(?:in\s+)?(?:the|a)\s+world`)).toBeUndefined();
    expect(leadingLiterals(String.raw`<\|im_start\|>`)).toBeUndefined();
  });

  it('lists the beginnings of every word', () => {
    expect([...wordStartPrefixes('an ігнор')]).toEqual([
      'an',
      'an ',
      'an і',
      'an іг',
      'an ігн',
      'an ігно',
      'an ігнор',
      'іг',
      'ігн',
      'ігно',
      'ігнор',
    ]);
  });

  it('never changes what the rules find, on every view of the training corpus', () => {
    const lines = readFileSync(new URL('../../../../eval/injection/train.jsonl', import.meta.url), 'utf8')
      .trim()
      .split('\n');
    const differing: string[] = [];
    let views = 0;
    // Every sixth item keeps the test quick; the corpus mixes languages and families throughout.
    for (const line of lines.filter((_, i) => i % 6 === 0)) {
      const folded = foldText((JSON.parse(line) as { text: string }).text);
      for (const view of [
        folded,
        correctTypos(folded),
        transliterate(folded, 'uk'),
        transliterate(folded, 'ru'),
      ]) {
        views++;
        const fast = JSON.stringify(matchRules(view));
        if (fast !== JSON.stringify(matchRules(view, { prefilter: false })))
          differing.push(view.slice(0, 80));
      }
    }
    expect(views).toBeGreaterThan(1200);
    expect(differing).toEqual([]);
  });
});
