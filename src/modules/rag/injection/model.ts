/**
 * The trained layer: a logistic-regression model over hashed character
 * n-grams (features.ts), trained by scripts/train-injection-model.mjs on
 * eval/injection/train.jsonl. Weights are stored quantised to 8 bits in
 * model-weights.json next to this file. Pure: loading the weights is the
 * only work done at import.
 */
import { FEATURE_BUCKETS, featurise } from './features.js';
import stored from './model-weights.json' with { type: 'json' };

interface StoredModel {
  buckets: number;
  bias: number;
  /** Weight = int8 value × scale. */
  scale: number;
  /** Base64 of one signed byte per bucket. */
  weights: string;
}

const model = stored as StoredModel;
if (model.buckets !== FEATURE_BUCKETS) {
  throw new Error(
    `injection model has ${model.buckets} buckets, features use ${FEATURE_BUCKETS}; retrain it`,
  );
}
const weights = new Int8Array(Buffer.from(model.weights, 'base64').buffer.slice(0));

/** Probability (0..1) that a folded text segment is an injection. */
export function modelScore(folded: string): number {
  let z = model.bias;
  for (const [bucket, value] of featurise(folded)) z += (weights[bucket] ?? 0) * model.scale * value;
  return 1 / (1 + Math.exp(-z));
}
