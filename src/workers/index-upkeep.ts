import type { Database } from '../core/db/client.js';
import { type EmbeddingProvider, embedderVersion } from '../core/llm/llm.js';
import type { RecurringTask } from '../core/scheduler.js';
import { reembedOutdatedExamples } from '../modules/intents/example-reembedding.js';
import type { IntentClassifier } from '../modules/intents/intent-classifier.js';
import type { IntentExamplesRepository } from '../modules/intents/intent-examples.repository.js';
import { reembedOutdatedChunks } from '../modules/knowledge/chunk-reembedding.js';
import { backfillKeywordTerms } from '../modules/knowledge/keyword-terms-backfill.js';

/** Rows re-embedded per table in one scheduled pass; the next slot continues. */
export const UPKEEP_MAX_ROWS = 20_000;
/** How often the scheduled pass runs (and at start). */
export const UPKEEP_EVERY_MS = 60 * 60 * 1000;

export interface IndexUpkeepDeps {
  db: Database;
  embeddings: EmbeddingProvider;
  examples: IntentExamplesRepository;
  classifier: IntentClassifier;
}

export interface IndexUpkeepResult {
  /** The embedder version the stored vectors were brought to. */
  embedder: string;
  chunks: number;
  intentExamples: number;
  keywordTerms: number;
  /** Whether rows may remain (a bounded pass stopped at its limit). */
  more: boolean;
}

/**
 * Brings stored search data up to date with the configured code: vectors of
 * chunks and intent examples made by another embedder are re-embedded
 * (`npm run reindex`, and at start in the worker run modes), and chunks
 * stored before the keyword index existed get their terms. Every step only
 * touches rows still outdated, so it is idempotent and safe beside another
 * runner. `maxRows` bounds each table's re-embedding per call.
 * @throws LlmProviderError when the embedding provider fails (work already stored stays).
 */
export async function runIndexUpkeep(
  deps: IndexUpkeepDeps,
  options: { maxRows?: number; log?: (line: string) => void } = {},
): Promise<IndexUpkeepResult> {
  const log = options.log ?? (() => {});
  const limit = options.maxRows === undefined ? {} : { maxRows: options.maxRows };
  const chunks = await reembedOutdatedChunks(deps, {
    ...limit,
    onBatch: (n) => log(`  chunks re-embedded: ${n}`),
  });
  const examples = await reembedOutdatedExamples(deps, {
    ...limit,
    onBatch: (n) => log(`  intent examples re-embedded: ${n}`),
  });
  const keywordTerms = await backfillKeywordTerms(deps.db);
  return {
    embedder: embedderVersion(deps.embeddings),
    chunks: chunks.updated,
    intentExamples: examples.updated,
    keywordTerms,
    more: chunks.more || examples.more,
  };
}

/**
 * The scheduled upkeep: runs at start and hourly in the worker run modes,
 * once per slot across replicas (core/scheduler.ts). The embedder version is
 * part of the task's name, so replicas started with a new embedder claim
 * their own slot even when an old replica already ran this hour's.
 */
export function indexUpkeepTask(
  deps: IndexUpkeepDeps & { logger: { info(object: object, message?: string): void } },
): RecurringTask {
  const version = embedderVersion(deps.embeddings);
  return {
    name: `index-upkeep-${version.replace(/[^A-Za-z0-9._-]+/g, '_')}`,
    everyMs: UPKEEP_EVERY_MS,
    async run() {
      const result = await runIndexUpkeep(deps, { maxRows: UPKEEP_MAX_ROWS });
      if (result.chunks + result.intentExamples + result.keywordTerms > 0 || result.more) {
        deps.logger.info({ ...result }, 'index upkeep: stored vectors and keyword terms brought up to date');
      }
      return result;
    },
  };
}
