import { describe, expect, it } from 'vitest';
import {
  cleanNeeded,
  confidenceVerdict,
  DEFAULT_TRUST_POLICY,
  evidenceOf,
  normalQuantile,
  type TrustEventKind,
  trustPolicyOf,
  wilsonLowerBound,
} from './trust-evidence.js';

const confidence = { ...DEFAULT_TRUST_POLICY, mode: 'confidence' as const };
const clean = (n: number): TrustEventKind[] => Array<TrustEventKind>(n).fill('clean');

describe('normalQuantile', () => {
  it('matches the standard normal table', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.9)).toBeCloseTo(1.281552, 5);
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 5);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.99)).toBeCloseTo(2.326348, 5);
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe('wilsonLowerBound', () => {
  it('matches published Wilson score intervals', () => {
    // 8 of 10 at 95 % two-sided (z = 1.96): [0.4902, 0.9433].
    expect(wilsonLowerBound(8, 10, 0.975)).toBeCloseTo(0.4902, 4);
    // 81 of 263 at 95 % two-sided: [0.2553, 0.3662] (Wilson's score interval, the usual worked example).
    expect(wilsonLowerBound(81, 263, 0.975)).toBeCloseTo(0.2553, 3);
    // 5 of 5 one-sided at 0.95 (z = 1.645): 1 / (1 + z²/5).
    expect(wilsonLowerBound(5, 5, 0.95)).toBeCloseTo(1 / (1 + 1.644854 ** 2 / 5), 6);
    expect(wilsonLowerBound(0, 7, 0.95)).toBe(0);
    expect(wilsonLowerBound(0, 0, 0.95)).toBeNull();
  });

  it('needs 16 clean decisions in a row to reach 0.85 at 0.95, 15 are not enough', () => {
    expect(wilsonLowerBound(15, 15, 0.95)).toBeLessThan(0.85);
    expect(wilsonLowerBound(16, 16, 0.95)).toBeGreaterThanOrEqual(0.85);
    expect(cleanNeeded([], confidence)).toBe(16);
    expect(cleanNeeded(clean(10), confidence)).toBe(6);
  });
});

describe('confidence mode', () => {
  it('promotes at the target, demotes below target − margin, keeps in between', () => {
    expect(confidenceVerdict(false, 0.85, confidence)).toBe('promote');
    expect(confidenceVerdict(false, 0.84, confidence)).toBe('keep');
    expect(confidenceVerdict(true, 0.81, confidence)).toBe('keep');
    expect(confidenceVerdict(true, 0.79, confidence)).toBe('demote');
    expect(confidenceVerdict(true, null, confidence)).toBe('demote');
  });

  it('reads the window of counted decisions only', () => {
    const recent: TrustEventKind[] = ['reject', ...clean(60), 'edit'];
    const evidence = evidenceOf(
      { successfulCount: 60, threshold: 5, isAutonomous: false },
      recent,
      { clean: 60, edits: 1, rejections: 1, notCounted: 4 },
      confidence,
    );
    expect(evidence).toMatchObject({
      mode: 'confidence',
      counted: 50,
      cleanApprovals: 49,
      rejections: 1,
      edits: 0,
      notCounted: 4,
    });
    expect(evidence.lowerBound).toBeCloseTo(wilsonLowerBound(49, 50, 0.95)!, 4);
    expect(evidence.neededForPromotion).toBe(0);
  });
});

describe('count mode evidence', () => {
  it('counts every decision and needs threshold − successfulCount', () => {
    const evidence = evidenceOf(
      { successfulCount: 3, threshold: 5, isAutonomous: false },
      [],
      { clean: 3, edits: 1, rejections: 1, notCounted: 5 },
      DEFAULT_TRUST_POLICY,
    );
    expect(evidence).toMatchObject({ counted: 5, cleanApprovals: 3, notCounted: 5, neededForPromotion: 2 });
  });
});

describe('trustPolicyOf', () => {
  it('fills the defaults in', () => {
    expect(trustPolicyOf(null)).toEqual(DEFAULT_TRUST_POLICY);
    expect(trustPolicyOf({ trust: { policy: { mode: 'confidence', window: 20 } } })).toEqual({
      ...DEFAULT_TRUST_POLICY,
      mode: 'confidence',
      window: 20,
    });
  });
});
