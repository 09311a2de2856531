/**
 * Intent-classification quality on the team's labelled set (eval/intents/).
 * Run: npm run eval:intents  [-- --misses]
 *
 * Seeds eval/intents/train.json into a fresh in-memory embedded database
 * through the real seeding service (offline embedder, as a deployment
 * without LLM_API_KEY), classifies every message of the held-out split
 * eval/intents/test.json with the real classifier, and prints accuracy per
 * language and per category (plain, typo, translit, codeswitch, short), the
 * share of out-of-domain items answered `unknown`, and the share of
 * in-domain items wrongly answered `unknown`. Exits 1 when a done-when
 * threshold is missed. `--misses` lists the wrong answers: read them to
 * understand, never to copy test phrasings into train.json.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openPglite } from '../src/core/db/client.js';
import { MIGRATED_EMBEDDING_DIMENSIONS } from '../src/core/db/schema/columns.js';
import { departments, namespaces } from '../src/core/db/schema/index.js';
import { createLocalEmbedder } from '../src/core/llm/local-embedder.js';
import { parseSeedFile } from '../src/modules/intents/intent-seeding.js';
import { UNKNOWN_INTENT } from '../src/modules/intents/intent-vote.js';
import { createIntentsModule } from '../src/modules/intents/intents.module.js';

/** The done-when thresholds of the intent work. */
export const INTENT_THRESHOLDS = { accuracy: 0.9, outOfDomainUnknown: 0.9 } as const;

export interface TestItem {
  text: string;
  /** The expected intent; `unknown` for out-of-domain items. */
  intent: string;
  language: 'en' | 'uk' | 'ru' | 'mixed';
  category: 'plain' | 'typo' | 'translit' | 'codeswitch' | 'short' | 'ood';
}

export interface Answer extends TestItem {
  answered: string;
  confidence: number;
}

/** Correct over total, for one slice of the split. */
export interface Rate {
  correct: number;
  total: number;
  rate: number;
}

export interface IntentReport {
  /** Every item of the split with what the classifier answered. */
  answers: Answer[];
  /** Accuracy over every item (in-domain and out-of-domain). */
  overall: Rate;
  /** Accuracy over the in-domain items (an `unknown` answer counts as wrong). */
  inDomain: Rate;
  byLanguage: Record<string, Rate>;
  byCategory: Record<string, Rate>;
  /** Out-of-domain items answered `unknown`. */
  outOfDomainUnknown: Rate;
  /** In-domain items answered `unknown` (counted as `correct` here: the items that hit it). */
  falseUnknown: Rate;
  /** Milliseconds per classification (embedding and vote), median. */
  medianMs: number;
}

const DIR = new URL('./intents/', import.meta.url);

/** The seed file (training phrases) and the held-out test split. */
export function loadIntentSet(): { train: unknown; test: TestItem[] } {
  const train = JSON.parse(readFileSync(new URL('train.json', DIR), 'utf8')) as unknown;
  const test = (JSON.parse(readFileSync(new URL('test.json', DIR), 'utf8')) as { items: TestItem[] }).items;
  return { train, test };
}

/**
 * Seeds the training phrases into a fresh in-memory embedded database and
 * classifies the test split, through the same services the API uses.
 */
export async function evaluateIntents(): Promise<IntentReport> {
  const { train, test } = loadIntentSet();
  const blocks = parseSeedFile(train);
  const database = await openPglite({});
  try {
    await database.migrate();
    const [department] = await database.db
      .insert(departments)
      .values({ name: 'Intent evaluation', slug: 'intent-evaluation' })
      .returning();
    for (const block of blocks) {
      await database.db.insert(namespaces).values({ name: block.namespace, departmentId: department!.id });
    }
    const embeddings = createLocalEmbedder(MIGRATED_EMBEDDING_DIMENSIONS);
    const intents = createIntentsModule({ db: database.db, embeddings });
    await intents.seeder.seed(blocks);
    const [namespace] = await intents.repositories.examples.namespacesNamed(blocks[0]!.namespace);

    const answers: Answer[] = [];
    const times: number[] = [];
    for (const item of test) {
      const started = performance.now();
      const result = await intents.classifier.classify(namespace!.id, item.text);
      times.push(performance.now() - started);
      answers.push({ ...item, answered: result.intent, confidence: result.confidence });
    }
    times.sort((a, b) => a - b);
    return summarise(answers, times[Math.floor(times.length / 2)] ?? 0);
  } finally {
    await database.close();
  }
}

function summarise(answers: Answer[], medianMs: number): IntentReport {
  const rate = (items: Answer[], ok: (a: Answer) => boolean): Rate => {
    const correct = items.filter(ok).length;
    return { correct, total: items.length, rate: items.length ? correct / items.length : 0 };
  };
  const right = (a: Answer) => a.answered === a.intent;
  const inDomain = answers.filter((a) => a.intent !== UNKNOWN_INTENT);
  const outOfDomain = answers.filter((a) => a.intent === UNKNOWN_INTENT);
  const groupBy = (items: Answer[], key: (a: Answer) => string) => {
    const groups = new Map<string, Answer[]>();
    for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
    return Object.fromEntries([...groups].map(([name, group]) => [name, rate(group, right)]));
  };
  return {
    answers,
    overall: rate(answers, right),
    inDomain: rate(inDomain, right),
    byLanguage: groupBy(inDomain, (a) => a.language),
    byCategory: groupBy(answers, (a) => a.category),
    outOfDomainUnknown: rate(outOfDomain, right),
    falseUnknown: rate(inDomain, (a) => a.answered === UNKNOWN_INTENT),
    medianMs,
  };
}

/** Whether the report meets {@link INTENT_THRESHOLDS}. */
export function meetsThresholds(report: IntentReport): boolean {
  return (
    report.inDomain.rate >= INTENT_THRESHOLDS.accuracy &&
    report.outOfDomainUnknown.rate >= INTENT_THRESHOLDS.outOfDomainUnknown
  );
}

/** The report as lines for people. */
export function describeReport(report: IntentReport, misses = false): string[] {
  const line = (label: string, r: Rate) =>
    `  ${label.padEnd(28)} ${r.rate.toFixed(3)}  (${r.correct}/${r.total})`;
  const lines = [
    'Intent classification, offline embedder, held-out split (eval/intents/test.json)',
    line('accuracy, in-domain', report.inDomain),
    line('accuracy, all items', report.overall),
    line('out-of-domain → unknown', report.outOfDomainUnknown),
    line('false unknown (in-domain)', report.falseUnknown),
    'per language (in-domain):',
    ...Object.entries(report.byLanguage).map(([name, r]) => line(name, r)),
    'per category:',
    ...Object.entries(report.byCategory).map(([name, r]) => line(name, r)),
    `median time per classification: ${report.medianMs.toFixed(2)} ms`,
    `thresholds: accuracy ≥ ${INTENT_THRESHOLDS.accuracy}, out-of-domain unknown ≥ ${INTENT_THRESHOLDS.outOfDomainUnknown}: ${
      meetsThresholds(report) ? 'met' : 'NOT met'
    }`,
  ];
  if (misses) {
    lines.push('misses:');
    for (const a of report.answers.filter((x) => x.answered !== x.intent)) {
      lines.push(`  ${a.intent} → ${a.answered} (${a.confidence.toFixed(2)}) [${a.category}] ${a.text}`);
    }
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await evaluateIntents();
  for (const line of describeReport(report, process.argv.includes('--misses'))) console.log(line);
  process.exitCode = meetsThresholds(report) ? 0 : 1;
}
