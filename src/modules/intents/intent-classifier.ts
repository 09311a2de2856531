import type { EmbeddingProvider } from '../../core/llm/llm.js';
import { rememberRecent } from '../../core/memo.js';
import { type ExampleMarks, NO_EXAMPLE_MARKS } from './example-marks.js';
import type { IntentExamplesRepository } from './intent-examples.repository.js';
import { clausesOf } from './intent-keywords.js';
import { buildIntentModel, classifyWithModel, type IntentModel, scoredText } from './intent-model.js';
import {
  EXAMPLES_PER_CHOICE,
  type IntentChoice,
  type IntentChooser,
  isUncertain,
  MAX_CHOICES,
} from './intent-model-fallback.js';
import {
  type Classification,
  MIN_INTENT_CONFIDENCE,
  UNKNOWN_INTENT,
  VOTING_NEIGHBOURS,
  voteIntent,
} from './intent-vote.js';

/**
 * A namespace with more examples than this is searched in the database (the
 * HNSW index, nearest-example vote only) instead of with the in-memory
 * model: 5 000 vectors of 1 536 dimensions are 30 MB and a 7.7 million
 * multiply scan.
 */
export const MAX_CACHED_EXAMPLES = 5000;

/** Namespaces whose models are kept at most; the least recently used one goes first. */
export const MAX_CACHED_NAMESPACES = 64;

/** A namespace's model in memory, valid while its version reads as `version`. */
interface CachedModel {
  version: string | null;
  /** null: too many examples, searched in the database. */
  model: IntentModel | null;
  texts: string[];
}

/**
 * Classifies a message against a namespace's stored examples with the
 * namespace's intent model (`intent-model.ts`): nearest examples, intent
 * centroids and distinctive keywords combined, a long message also read
 * sentence by sentence, against the namespace's own calibrated threshold.
 * No access checks: callers (the HTTP service, the pipeline) decide scope.
 *
 * The model is built from the namespace's examples and kept in memory while
 * the namespace's version reads as it did before the examples were loaded:
 * its mark (see `example-marks.ts`; Redis, or the embedded database's
 * memory) where the deployment has marks, else a digest of the example set
 * (`fingerprint`, one small query). The intents service moves the mark after
 * every change to the examples, so the next classification in any process
 * rebuilds (and recalibrates) the model.
 *
 * With `chooser` (INTENT_MODEL_FALLBACK=true and a configured model), an
 * uncertain offline answer (`isUncertain`) is put to the model once, with
 * the namespace's intents and their examples nearest to the message; any
 * failure keeps the offline answer.
 */
export function createIntentClassifier(deps: {
  examples: IntentExamplesRepository;
  embeddings: EmbeddingProvider;
  marks?: ExampleMarks;
  chooser?: IntentChooser;
}) {
  const marks = deps.marks ?? NO_EXAMPLE_MARKS;
  const cache = new Map<string, CachedModel>();

  async function load(namespaceId: string, version: string | null): Promise<CachedModel> {
    const rows = await deps.examples.vectors(namespaceId, MAX_CACHED_EXAMPLES + 1);
    const entry: CachedModel = { version, model: null, texts: [] };
    if (rows.length <= MAX_CACHED_EXAMPLES) {
      const examples = rows.map((row) => ({
        intentName: row.intentName,
        text: row.exampleText,
        vector: Float32Array.from(JSON.parse(row.embedding) as number[]),
      }));
      entry.model = buildIntentModel(examples, deps.embeddings.matchSimilarity);
      entry.texts = rows.map((row) => row.exampleText);
    }
    rememberRecent(cache, namespaceId, entry, MAX_CACHED_NAMESPACES);
    return entry;
  }

  /** The namespace's model as of its current version: the copy held, or built anew. */
  async function current(namespaceId: string): Promise<CachedModel> {
    // The version is read BEFORE the rows: a change committed in between moves it, and the next call reloads.
    const version =
      marks.kind === 'none' ? await deps.examples.fingerprint(namespaceId) : await marks.read(namespaceId);
    const held = cache.get(namespaceId);
    if (held && held.version === version) {
      rememberRecent(cache, namespaceId, held, MAX_CACHED_NAMESPACES);
      return held;
    }
    return load(namespaceId, version);
  }

  /** The model's second opinion on an uncertain answer (at most one call), or the offline answer. */
  async function secondOpinion(
    text: string,
    entry: CachedModel,
    offline: Classification,
    similarities: Float64Array,
  ): Promise<Classification> {
    const { model } = entry;
    const chooser = deps.chooser;
    if (!chooser || !model) return offline;
    const ranked =
      offline.intent === UNKNOWN_INTENT ? offline.alternatives : [offline, ...offline.alternatives];
    if (!isUncertain(ranked[0]?.confidence ?? 0, ranked[1]?.confidence ?? 0)) return offline;
    const choice = await chooser(text, choicesFor(model, entry.texts, similarities));
    if (choice === null || choice === offline.intent) return offline;
    const all = [...ranked];
    if (choice === UNKNOWN_INTENT) {
      const confidence = Math.min(ranked[0]?.confidence ?? 0, MIN_INTENT_CONFIDENCE - 0.0001);
      return { intent: UNKNOWN_INTENT, confidence, alternatives: all };
    }
    const chosen = all.find((score) => score.intent === choice);
    return {
      intent: choice,
      confidence: Math.max(chosen?.confidence ?? 0, MIN_INTENT_CONFIDENCE),
      alternatives: all.filter((score) => score.intent !== choice),
    };
  }

  return {
    /**
     * `{ intent, confidence, alternatives }` for `text` in the namespace.
     * With `embedding` (the message's vector, already computed) the provider
     * is not called for the whole message (a long message's sentences are
     * embedded in one call). A text without words (a zero vector) or a
     * namespace without examples answers `unknown` with confidence 0.
     * @throws LlmProviderError when the embedding provider fails.
     */
    async classify(namespaceId: string, text: string, embedding?: number[]): Promise<Classification> {
      const vector = embedding ?? (await deps.embeddings.embed([text]))[0];
      if (!vector?.some((v) => v !== 0)) return { intent: UNKNOWN_INTENT, confidence: 0, alternatives: [] };
      const entry = await current(namespaceId);
      if (!entry.model) {
        return voteIntent(await deps.examples.nearest(namespaceId, vector, VOTING_NEIGHBOURS), {
          matchSimilarity: deps.embeddings.matchSimilarity,
        });
      }
      if (entry.model.held.count === 0) return { intent: UNKNOWN_INTENT, confidence: 0, alternatives: [] };
      const sentences = clausesOf(text);
      const sentenceVectors = sentences.length ? await deps.embeddings.embed(sentences) : [];
      const { similarities, ...offline } = classifyWithModel(
        entry.model,
        scoredText(text, vector),
        sentences.map((sentence, i) => scoredText(sentence, sentenceVectors[i] ?? [])),
      );
      return secondOpinion(text, entry, offline, similarities);
    },

    /**
     * The namespace's score line and whether it was calibrated from its
     * examples (false: too few, the default 0.5), for operators and the
     * evaluation. Builds the model when it is not held.
     */
    async threshold(namespaceId: string): Promise<{ threshold: number; calibrated: boolean }> {
      const { model } = await current(namespaceId);
      return model
        ? { threshold: model.threshold, calibrated: model.calibrated }
        : { threshold: MIN_INTENT_CONFIDENCE, calibrated: false };
    },

    /** Call after a change to the namespace's examples commits: every process reloads them at its next use. */
    async examplesChanged(namespaceId: string): Promise<void> {
      await marks.bump(namespaceId);
    },
  };
}

/** Every intent (the nearest first, at most MAX_CHOICES) with its examples nearest to the message. */
function choicesFor(
  model: IntentModel,
  texts: readonly string[],
  similarities: Float64Array,
): IntentChoice[] {
  const order = [...similarities.keys()].sort((a, b) => similarities[b]! - similarities[a]!);
  const byIntent = new Map<string, string[]>();
  for (const e of order) {
    const intent = model.intents[model.intentOf[e]!]!;
    const examples = byIntent.get(intent) ?? [];
    if (examples.length < EXAMPLES_PER_CHOICE) examples.push(texts[e]!);
    byIntent.set(intent, examples);
  }
  return [...byIntent].slice(0, MAX_CHOICES).map(([intent, examples]) => ({ intent, examples }));
}

export type IntentClassifier = ReturnType<typeof createIntentClassifier>;
