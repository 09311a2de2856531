// Trains the injection classifier (src/modules/rag/injection/model.ts) on
// eval/injection/train.jsonl and writes src/modules/rag/injection/model-weights.json.
// Run: node scripts/train-injection-model.mjs [--holdout]   (plain Node; tsx loads the
// TypeScript feature code so training and run time share one implementation).
//
// Logistic regression, sparse SGD with L2 decay and balanced class weights,
// deterministic: a seeded generator orders the examples. A development slice
// (every fifth item of train by a hash of its id) is held out first to report
// how the model alone does at several thresholds; the stored model is then
// trained on all of train. test.jsonl is never read.
import { readFileSync, writeFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';

const { featurise, FEATURE_BUCKETS } = await tsImport(
  '../src/modules/rag/injection/features.ts',
  import.meta.url,
);
const { foldText, segments } = await tsImport('../src/modules/rag/injection/normalise.ts', import.meta.url);

const EPOCHS = 40;
const LEARNING_RATE = 0.5;
const L2 = 1e-5;
const SEED = 16;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const idHash = (id) => [...id].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/**
 * Training examples from corpus items: a message is one example; a clean
 * document gives one negative example per segment (the detector scores
 * documents segment by segment); an injected document is left out, since
 * which segment carries the injection is not labelled (its phrasing is
 * among the messages). Encoded items are left out: the detector decodes
 * them before the model sees them.
 */
function examples(items) {
  // Sentences that also occur in clean items (greetings, ordinary questions a message wraps an attack in)
  // are no evidence of injection; they are dropped from injected messages.
  const clean = new Set();
  for (const item of items)
    if (item.label === 0) for (const s of sentences(foldText(item.text))) clean.add(s);
  const out = [];
  for (const item of items) {
    if (item.family === 'encoded') continue;
    const folded = foldText(item.text);
    if (item.kind === 'message') {
      const text =
        item.label === 1
          ? sentences(folded)
              .filter((s) => !clean.has(s))
              .join(' ') || folded
          : folded;
      out.push({ features: featurise(text), label: item.label });
    } else if (item.label === 0) {
      for (const segment of segments(folded)) out.push({ features: featurise(segment), label: 0 });
    }
  }
  return out;
}

function sentences(folded) {
  return folded
    .split(/(?<=[.!?:,])\s+|\n+/u)
    .map((s) => s.trim().replace(/[.!?:,]+$/u, ''))
    .filter(Boolean);
}

function train(data) {
  const random = mulberry32(SEED);
  const weights = new Float64Array(FEATURE_BUCKETS);
  let bias = 0;
  const positives = data.filter((d) => d.label === 1).length;
  const classWeight = [data.length / (2 * (data.length - positives)), data.length / (2 * positives)];
  const order = data.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const rate = LEARNING_RATE / (1 + epoch * 0.1);
    for (const index of order) {
      const { features, label } = data[index];
      let z = bias;
      for (const [bucket, value] of features) z += weights[bucket] * value;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - label) * classWeight[label] * rate;
      for (const [bucket, value] of features) weights[bucket] -= g * value + rate * L2 * weights[bucket];
      bias -= g;
    }
  }
  return { weights, bias };
}

function score({ weights, bias }, features) {
  let z = bias;
  for (const [bucket, value] of features) z += weights[bucket] * value;
  return 1 / (1 + Math.exp(-z));
}

const items = readFileSync(new URL('../eval/injection/train.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

// Development slice: how the model alone separates unseen train items.
const dev = items.filter((item) => idHash(item.id) % 5 === 0);
const fit = items.filter((item) => idHash(item.id) % 5 !== 0);
const devModel = train(examples(fit));
const devExamples = examples(dev);
console.log(`dev slice: ${dev.length} items, ${devExamples.length} examples (model alone, per example)`);
for (const threshold of [0.3, 0.4, 0.5, 0.6, 0.7]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const example of devExamples) {
    const flagged = score(devModel, example.features) >= threshold;
    if (example.label === 1) flagged ? tp++ : fn++;
    else flagged ? fp++ : tn++;
  }
  console.log(
    `  threshold ${threshold}: recall ${(tp / (tp + fn)).toFixed(3)}, false positives ${(fp / (fp + tn)).toFixed(3)}`,
  );
}

// The stored model: all of train, or with --holdout only the part outside the development
// slice, so that `npm run eval:injection -- --split dev` measures the whole detector on unseen items.
const holdout = process.argv.includes('--holdout');
const data = examples(holdout ? fit : items);
const model = train(data);
const largest = model.weights.reduce((m, w) => Math.max(m, Math.abs(w)), 0) || 1;
const scale = largest / 127;
const quantised = Int8Array.from(model.weights, (w) => Math.max(-127, Math.min(127, Math.round(w / scale))));
const stored = {
  description:
    'Injection classifier: logistic regression over hashed char 3-5-grams and words; see scripts/train-injection-model.mjs',
  trainedOn: holdout
    ? 'eval/injection/train.jsonl without the development slice'
    : 'eval/injection/train.jsonl',
  examples: data.length,
  buckets: FEATURE_BUCKETS,
  bias: model.bias,
  scale,
  weights: Buffer.from(quantised.buffer).toString('base64'),
};
writeFileSync(
  new URL('../src/modules/rag/injection/model-weights.json', import.meta.url),
  `${JSON.stringify(stored)}\n`,
);
console.log(`trained on ${data.length} examples; wrote model-weights.json (${FEATURE_BUCKETS} buckets)`);
