/**
 * How an intent earns and keeps autonomy (docs/approvals.md, "Trust"): the namespace's trust
 * policy, the Wilson lower bound of the clean-approval rate, and the evidence a trust record shows.
 * Pure functions; the trust events they read are written by approval-trust.ts.
 */

export type TrustMode = 'count' | 'confidence';

/** `config.trust.policy` of a namespace with every default filled in. */
export interface TrustPolicy {
  mode: TrustMode;
  /** Counted decisions the confidence mode looks back over. */
  window: number;
  /** The clean-approval rate the lower bound must reach. */
  targetRate: number;
  /** One-sided confidence of the lower bound. */
  confidenceLevel: number;
  /** Below `targetRate − margin` an autonomous intent is demoted (hysteresis). */
  margin: number;
}

export const DEFAULT_TRUST_POLICY: TrustPolicy = {
  mode: 'count',
  window: 50,
  targetRate: 0.85,
  confidenceLevel: 0.95,
  margin: 0.05,
};

/** A row of `trust_events`: what one decision or rating did. */
export type TrustEventKind = 'clean' | 'edit' | 'reject' | 'not_counted' | 'down';

/** The evidence behind an intent's trust, as `GET /intents/trust` and `/analytics/intents` answer it. */
export interface TrustEvidence {
  mode: TrustMode;
  successfulCount: number;
  threshold: number;
  isAutonomous: boolean;
  /** Counted decisions considered: in `confidence` mode the last `window`, in `count` mode all. */
  counted: number;
  cleanApprovals: number;
  edits: number;
  /** Rejections, and in `confidence` mode the "down" ratings of auto-sent replies. */
  rejections: number;
  /** Plain approvals that did not count (ungrounded drafts), over the intent's whole history. */
  notCounted: number;
  /** The Wilson lower bound of the clean-approval rate over `counted`; null when nothing was counted. */
  lowerBound: number | null;
  /** Clean approvals in a row that would make the intent autonomous now; 0 when it is. */
  neededForPromotion: number;
}

/** The namespace's policy from its `config`, defaults for whatever is unset (the schema validated it). */
export function trustPolicyOf(config: Record<string, unknown> | null | undefined): TrustPolicy {
  const trust = config?.trust as { policy?: Partial<TrustPolicy> } | undefined;
  const policy = trust?.policy;
  if (!policy || typeof policy !== 'object') return DEFAULT_TRUST_POLICY;
  return { ...DEFAULT_TRUST_POLICY, ...policy };
}

/**
 * The standard normal quantile Φ⁻¹(p) for 0 < p < 1, by Acklam's rational approximation
 * (relative error below 1.2e-9), which is all a confidence level needs.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * The Wilson score lower bound of a success rate: `successes` of `trials`, one-sided at
 * `confidenceLevel` (z = Φ⁻¹(confidenceLevel): 1.645 at 0.95), so "the rate is at least this"
 * holds with that confidence. Null for no trials.
 */
export function wilsonLowerBound(successes: number, trials: number, confidenceLevel: number): number | null {
  if (trials <= 0) return null;
  const z = normalQuantile(confidenceLevel);
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.max(0, (centre - spread) / (1 + z2 / trials));
}

/** Counted kinds: what enters the confidence window (`not_counted` never does). */
export function isCounted(kind: TrustEventKind): boolean {
  return kind !== 'not_counted';
}

/** Whether a counted event is a clean approval. */
const isClean = (kind: TrustEventKind) => kind === 'clean';

/**
 * The lower bound over the most recent `window` counted events (`recent` newest first).
 */
export function windowBound(recent: readonly TrustEventKind[], policy: TrustPolicy): number | null {
  const counted = recent.filter(isCounted).slice(0, policy.window);
  return wilsonLowerBound(counted.filter(isClean).length, counted.length, policy.confidenceLevel);
}

/**
 * Clean approvals in a row that would lift the window's bound to the target: each one enters the
 * window and, once it is full, pushes the oldest event out. Answers the smallest such number
 * (at most `window`: a full window of clean approvals always reaches any target below its bound).
 */
export function cleanNeeded(recent: readonly TrustEventKind[], policy: TrustPolicy): number {
  const counted = recent.filter(isCounted).slice(0, policy.window);
  for (let added = 0; added <= policy.window; added += 1) {
    const window = [...Array<TrustEventKind>(added).fill('clean'), ...counted].slice(0, policy.window);
    const bound = wilsonLowerBound(window.filter(isClean).length, window.length, policy.confidenceLevel);
    if (bound !== null && bound >= policy.targetRate) return added;
  }
  return policy.window;
}

/**
 * Whether the intent should now be autonomous under the confidence mode: promoted when the bound
 * reaches the target, demoted when an autonomous intent's bound falls below target − margin,
 * unchanged between the two (so one decision does not flip it back and forth).
 */
export function confidenceVerdict(
  isAutonomous: boolean,
  bound: number | null,
  policy: TrustPolicy,
): 'promote' | 'demote' | 'keep' {
  if (!isAutonomous && bound !== null && bound >= policy.targetRate) return 'promote';
  if (isAutonomous && (bound === null || bound < policy.targetRate - policy.margin)) return 'demote';
  return 'keep';
}

/**
 * The evidence of one intent from its trust record and its events (newest first; in `confidence`
 * mode the window's worth of counted ones is enough, `notCountedTotal` is the whole history's).
 */
export function evidenceOf(
  record: { successfulCount: number; threshold: number; isAutonomous: boolean },
  recent: readonly TrustEventKind[],
  totals: { clean: number; edits: number; rejections: number; notCounted: number },
  policy: TrustPolicy,
): TrustEvidence {
  const base = {
    mode: policy.mode,
    successfulCount: record.successfulCount,
    threshold: record.threshold,
    isAutonomous: record.isAutonomous,
    notCounted: totals.notCounted,
  };
  if (policy.mode === 'confidence') {
    const counted = recent.filter(isCounted).slice(0, policy.window);
    return {
      ...base,
      counted: counted.length,
      cleanApprovals: counted.filter((k) => k === 'clean').length,
      edits: counted.filter((k) => k === 'edit').length,
      rejections: counted.filter((k) => k === 'reject' || k === 'down').length,
      lowerBound: round(windowBound(recent, policy)),
      neededForPromotion: record.isAutonomous ? 0 : cleanNeeded(recent, policy),
    };
  }
  const counted = totals.clean + totals.edits + totals.rejections;
  return {
    ...base,
    counted,
    cleanApprovals: totals.clean,
    edits: totals.edits,
    rejections: totals.rejections,
    lowerBound: round(wilsonLowerBound(totals.clean, counted, policy.confidenceLevel)),
    neededForPromotion: record.isAutonomous ? 0 : Math.max(0, record.threshold - record.successfulCount),
  };
}

const round = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);
