/**
 * Injection-detection quality on the team's labelled corpus.
 * Run: npm run eval:injection  [-- --split train|test|dev|both] [--set=unseen] [--misses]
 *
 * Prints, for the held-back test split (and train for reference): precision,
 * recall and false-positive rate overall, per language, per kind, per
 * language × kind (the done-when cells) and per corpus family, plus p50/p95
 * detection time per message, and a count of false positives by the
 * detector family that raised them (counts only). `--misses` lists the wrong
 * verdicts; use it on train only, never to tune on test.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { detectInjection } from '../src/modules/rag/injection/detector.js';

interface Item {
  id: string;
  lang: string;
  kind: 'message' | 'document';
  label: 0 | 1;
  family: string;
  text: string;
  html?: string;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/**
 * `train`, `test`, or `dev`: the development slice of train (see
 * scripts/train-injection-model.mjs); `unseen-dev` and `unseen-test`: the
 * halves of the unseen-attack set (eval/injection/build-unseen.mjs).
 */
export function loadSplit(split: string): Item[] {
  const file = split === 'dev' ? 'train' : split;
  const items = readFileSync(new URL(`./injection/${file}.jsonl`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Item);
  return split === 'dev' ? items.filter((item) => idHash(item.id) % 5 === 0) : items;
}

function idHash(id: string): number {
  return [...id].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);
}

const args = process.argv.slice(2);
const splitArg = args.includes('--split') ? args[args.indexOf('--split') + 1] : 'both';
/** `--set=unseen` reads the unseen-attack set: its test half, and its dev half for reference. */
const unseen =
  args.includes('--set=unseen') || (args.includes('--set') && args[args.indexOf('--set') + 1] === 'unseen');
const splits = unseen
  ? splitArg === 'both'
    ? ['unseen-test', 'unseen-dev']
    : [`unseen-${splitArg === 'dev' ? 'dev' : 'test'}`]
  : splitArg === 'both'
    ? ['test', 'train']
    : [splitArg ?? 'test'];
const showMisses = args.includes('--misses');
/**
 * Each message is timed this many times and its fastest run kept: on a
 * shared machine, other processes otherwise decide the tail, not the detector.
 */
const TIMING_RUNS = 5;

function fastestOf(runs: number, work: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

for (const split of splits) {
  const items = loadSplit(split);
  const groups = new Map<string, Counts>();
  const bump = (key: string, item: Item, flagged: boolean) => {
    const counts = groups.get(key) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
    if (item.label === 1) flagged ? counts.tp++ : counts.fn++;
    else flagged ? counts.fp++ : counts.tn++;
    groups.set(key, counts);
  };
  const messageTimes: number[] = [];
  const misses: string[] = [];
  /** Counts only: which of the detector's families (and notes) made the false positives. */
  const falseBy = new Map<string, number>();
  for (const item of items) {
    const options = { kind: item.kind, ...(item.html ? { html: item.html } : {}) };
    const verdict = detectInjection(item.text, options);
    if (item.kind === 'message')
      messageTimes.push(fastestOf(TIMING_RUNS, () => detectInjection(item.text, options)));
    for (const key of [
      'overall',
      `lang ${item.lang}`,
      `kind ${item.kind}`,
      `${item.lang} ${item.kind}`,
      `family ${item.family}`,
    ]) {
      bump(key, item, verdict.detected);
    }
    if (verdict.detected && item.label === 0) {
      const key = `${item.lang} ${item.kind} ← ${verdict.family}${verdict.reason?.endsWith(')') ? ` (${verdict.reason.slice(verdict.reason.lastIndexOf('(') + 1, -1)})` : ''}`;
      falseBy.set(key, (falseBy.get(key) ?? 0) + 1);
    }
    if (verdict.detected !== (item.label === 1)) {
      misses.push(
        `${item.id} [${item.family}] label ${item.label} score ${verdict.score} ${verdict.reason ?? ''} :: ${item.text.replace(/\s+/g, ' ').slice(0, 160)}`,
      );
    }
  }
  console.log(`\n== ${split} split: ${items.length} items ==`);
  console.log(
    `${'group'.padEnd(30)} ${'n'.padStart(4)} ${'prec'.padStart(6)} ${'recall'.padStart(6)} ${'FP rate'.padStart(7)}`,
  );
  const order = [...groups.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const key of order) {
    const c = groups.get(key) as Counts;
    const n = c.tp + c.fp + c.fn + c.tn;
    console.log(
      `${key.padEnd(30)} ${String(n).padStart(4)} ${ratio(c.tp, c.tp + c.fp).padStart(6)} ${ratio(c.tp, c.tp + c.fn).padStart(6)} ${ratio(c.fp, c.fp + c.tn).padStart(7)}`,
    );
  }
  messageTimes.sort((a, b) => a - b);
  const pct = (p: number) =>
    (messageTimes[Math.min(messageTimes.length - 1, Math.floor(p * messageTimes.length))] ?? 0).toFixed(3);
  console.log(
    `detection time per message (fastest of ${TIMING_RUNS} runs): p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms (${messageTimes.length} messages)`,
  );
  if (falseBy.size) {
    console.log('false positives by the family that flagged them (counts):');
    for (const [key, count] of [...falseBy].sort((a, b) => b[1] - a[1])) console.log(`  ${key}: ${count}`);
  }
  if (showMisses) for (const miss of misses) console.log(`  miss ${miss}`);
}

function rank(key: string): number {
  if (key === 'overall') return 0;
  if (key.startsWith('lang')) return 1;
  if (key.startsWith('kind')) return 2;
  if (key.startsWith('family')) return 4;
  return 3;
}

function ratio(numerator: number, denominator: number): string {
  return denominator === 0 ? '-' : (numerator / denominator).toFixed(3);
}
