import { describe, expect, it } from 'vitest';
import { questionUnits } from '../../core/text/answer-evidence.js';
import { answerConfidences, answerFeatures, confidenceOf } from './answer-confidence.js';

const passage = (content: string, score: number, verbatim = false) => ({
  title: 'Employee Handbook',
  content,
  score,
  verbatim,
});

describe('answer confidence', () => {
  const leave =
    'Full-time employees receive 25 working days of paid annual leave per holiday year. Parking is free.';

  it('lifts a near passage whose sentence holds the question (by synonym, in another language) over the line', () => {
    const [en, uk] = [
      answerConfidences('How many vacation days do I get?', [passage(leave, 0.45)])[0]!,
      answerConfidences('Скільки днів відпустки?', [passage(leave, 0.45)])[0]!,
    ];
    expect(en).toBeGreaterThanOrEqual(0.7);
    expect(uk).toBeGreaterThanOrEqual(0.7);
  });

  it('keeps a passage that lacks what is asked under the line at the same score', () => {
    const [confidence] = answerConfidences('Is there a company car scheme?', [passage(leave, 0.45)]);
    expect(confidence).toBeLessThan(0.7);
  });

  it('rises with the retrieval score and with the share of the question the best sentence holds', () => {
    const units = questionUnits('How many vacation days do I get?');
    const low = confidenceOf(answerFeatures(units, passage(leave, 0.2)), false);
    const high = confidenceOf(answerFeatures(units, passage(leave, 0.5)), false);
    expect(high).toBeGreaterThan(low);
    const partial = answerFeatures(units, passage('Employees get paid days for training.', 0.4));
    const whole = answerFeatures(units, passage(leave, 0.4));
    expect(whole.sentence).toBe(1);
    expect(partial.sentence).toBeLessThan(1);
    expect(confidenceOf(whole, false)).toBeGreaterThan(confidenceOf(partial, false));
  });

  it('keeps a word-for-word repeat at its lifted score of 0.9 or more, and answers nothing for no passage', () => {
    const [repeat] = answerConfidences('Parking is free for all visitors today.', [
      passage('Unrelated text.', 0.93, true),
    ]);
    expect(repeat).toBeGreaterThanOrEqual(0.9);
    expect(answerConfidences('anything', [])).toEqual([]);
  });

  it('stays in [0, 1] and does not reorder passages', () => {
    const confidences = answerConfidences('annual leave', [
      passage('Lunch is at noon.', 0.1),
      passage(leave, 0.9),
    ]);
    expect(confidences).toHaveLength(2);
    expect(confidences[0]!).toBeLessThan(confidences[1]!);
    for (const c of confidences) expect(c >= 0 && c <= 1).toBe(true);
  });
});
