import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { voteIntent } from './intent-vote.js';

const n = (intentName: string, similarity: number) => ({ intentName, similarity });

describe('voteIntent', () => {
  it('answers unknown with confidence 0 without neighbours', () => {
    expect(voteIntent([])).toEqual({ intent: 'unknown', confidence: 0, alternatives: [] });
  });

  it('gives an intent whose neighbours all agree its best similarity as confidence', () => {
    expect(voteIntent([n('a', 0.8), n('a', 0.6), n('a', 0.5)])).toEqual({
      intent: 'a',
      confidence: 0.8,
      alternatives: [],
    });
  });

  it('lets one exact match outvote four distant neighbours of another intent', () => {
    const result = voteIntent([n('a', 1), n('b', 0.3), n('b', 0.3), n('b', 0.3), n('b', 0.3)]);
    // votes: a 1, b 4 × 0.09 = 0.36; a = 1 / 1.36 × 1
    expect(result.intent).toBe('a');
    expect(result.confidence).toBeCloseTo(1 / 1.36, 4);
    expect(result.alternatives).toEqual([{ intent: 'b', confidence: expect.any(Number) }]);
    expect(result.alternatives[0]!.confidence).toBeCloseTo((0.36 / 1.36) * 0.3, 4);
  });

  it('answers unknown for far neighbours however they vote, listing every candidate', () => {
    expect(voteIntent([n('a', 0.3), n('a', 0.25), n('a', 0.2)])).toEqual({
      intent: 'unknown',
      confidence: 0.3,
      alternatives: [{ intent: 'a', confidence: 0.3 }],
    });
  });

  it('answers unknown when close neighbours disagree', () => {
    const result = voteIntent([n('a', 0.8), n('b', 0.78), n('a', 0.7), n('b', 0.69), n('c', 0.6)]);
    expect(result.intent).toBe('unknown');
    expect(result.alternatives.map((a) => a.intent)).toEqual(['a', 'b', 'c']);
  });

  it('decides at exactly 0.5', () => {
    expect(voteIntent([n('a', 0.5)]).intent).toBe('a');
    expect(voteIntent([n('a', 0.4999)]).intent).toBe('unknown');
  });

  it('clamps negative and non-finite similarities to 0 and breaks ties by name', () => {
    expect(voteIntent([n('b', 0.9), n('a', 0.9), n('c', -0.5), n('d', Number.NaN)])).toMatchObject({
      intent: 'unknown',
      alternatives: [
        { intent: 'a', confidence: 0.45 },
        { intent: 'b', confidence: 0.45 },
        { intent: 'c', confidence: 0 },
        { intent: 'd', confidence: 0 },
      ],
    });
  });

  it('reads similarities against the embedder’s match similarity', () => {
    const neighbours = [n('a', 0.3), n('a', 0.25), n('b', 0.1)];
    expect(voteIntent(neighbours).intent).toBe('unknown');
    // 0.3 of 0.33 is close to a sure match: the share (0.9385) × 0.9091.
    const scaled = voteIntent(neighbours, { matchSimilarity: 0.33 });
    expect(scaled.intent).toBe('a');
    expect(scaled.confidence).toBe(0.8531);
    // Closeness is capped at 1: an exact copy still reads 1, never more.
    expect(voteIntent([n('a', 1)], { matchSimilarity: 0.33 }).confidence).toBe(1);
    // A missing or nonsensical match similarity reads as raw cosine.
    expect(voteIntent(neighbours, { matchSimilarity: 0 })).toEqual(voteIntent(neighbours));
  });

  it('keeps every confidence in [0, 1], the answer first, and never answers below the minimum', () => {
    const neighbour = fc.record({
      intentName: fc.constantFrom('a', 'b', 'c'),
      similarity: fc.double({ min: -1, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(neighbour, { maxLength: 8 }), (neighbours) => {
        const result = voteIntent(neighbours, { matchSimilarity: 0.33 });
        const all = [result, ...result.alternatives];
        for (const score of all) {
          expect(score.confidence).toBeGreaterThanOrEqual(0);
          expect(score.confidence).toBeLessThanOrEqual(1);
          expect(score.confidence).toBeLessThanOrEqual(result.confidence);
        }
        if (result.intent !== 'unknown') expect(result.confidence).toBeGreaterThanOrEqual(0.5);
      }),
    );
  });
});
