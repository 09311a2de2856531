import type { EmbeddingProvider } from '../../core/llm/llm.js';
import { rememberRecent } from '../../core/memo.js';
import { type ExampleMarks, NO_EXAMPLE_MARKS } from './example-marks.js';
import type { IntentExamplesRepository } from './intent-examples.repository.js';
import {
  type Classification,
  type Neighbour,
  UNKNOWN_INTENT,
  VOTING_NEIGHBOURS,
  voteIntent,
} from './intent-vote.js';

/**
 * A namespace with more examples than this is searched in the database (the
 * HNSW index) instead of in memory: 5 000 vectors of 1 536 dimensions are
 * 30 MB and a 7.7 million multiply scan.
 */
export const MAX_CACHED_EXAMPLES = 5000;

/** Namespaces whose vectors are kept at most; the least recently used one goes first. */
export const MAX_CACHED_NAMESPACES = 64;

/** A namespace's example vectors in memory, valid while its mark reads as `mark`. */
interface CachedExamples {
  mark: string | null;
  /** null: too many examples, searched in the database. */
  examples: HeldExamples | null;
}

/**
 * Example vectors laid out by dimension: `columns[d * count + e]` is
 * component d of example e. A message's vector touches a few hundred
 * dimensions, and each is then one pass over consecutive memory for all
 * examples, instead of a scattered read in each example's 6 KB vector.
 */
interface HeldExamples {
  intentNames: string[];
  count: number;
  dimensions: number;
  columns: Float32Array;
  norms: Float64Array;
}

/** Lays `vectors` out by dimension (a shorter vector's missing components are 0). */
function heldExamples(intentNames: string[], vectors: Float32Array[]): HeldExamples {
  const count = vectors.length;
  const dimensions = vectors.reduce((most, vector) => Math.max(most, vector.length), 0);
  const columns = new Float32Array(dimensions * count);
  for (const [e, vector] of vectors.entries())
    for (let d = 0; d < vector.length; d++) columns[d * count + e] = vector[d]!;
  return {
    intentNames,
    count,
    dimensions,
    columns,
    norms: Float64Array.from(vectors, (v) => Math.sqrt(dot(v, v))),
  };
}

/**
 * The dot product of `query` with every example. Each example's sum adds
 * its terms in the order of the dimensions, skipping those where the query
 * is 0 (their terms are zero), so each is the dense dot product to the bit.
 */
function dotsWith(query: Float32Array, examples: HeldExamples): Float64Array {
  const { count, columns } = examples;
  const sums = new Float64Array(count);
  const dimensions = Math.min(query.length, examples.dimensions);
  for (let d = 0; d < dimensions; d++) {
    const q = query[d]!;
    if (q === 0) continue;
    const offset = d * count;
    for (let e = 0; e < count; e++) sums[e]! += q * columns[offset + e]!;
  }
  return sums;
}

/**
 * Classifies a message against a namespace's stored examples: the
 * {@link VOTING_NEIGHBOURS} nearest examples by cosine similarity vote (see
 * `voteIntent`). No access checks: callers (the HTTP service, the pipeline)
 * decide scope.
 *
 * With marks (Redis, or the embedded database's memory marks), a
 * namespace's example vectors are kept in memory and the neighbours found by
 * an exact scan there: about 0.1 ms for 240 examples, where the database
 * search is a transaction of four statements (settings, search). The copy is
 * used only while the namespace's mark (see `example-marks.ts`) reads as it
 * did before the copy was loaded; the intents service moves it after every
 * change to the examples, so the next classification in any process sees it.
 */
export function createIntentClassifier(deps: {
  examples: IntentExamplesRepository;
  embeddings: EmbeddingProvider;
  marks?: ExampleMarks;
}) {
  const marks = deps.marks ?? NO_EXAMPLE_MARKS;
  const cache = new Map<string, CachedExamples>();

  async function load(namespaceId: string, mark: string | null): Promise<CachedExamples> {
    const rows = await deps.examples.vectors(namespaceId, MAX_CACHED_EXAMPLES + 1);
    const entry: CachedExamples = { mark, examples: null };
    if (rows.length <= MAX_CACHED_EXAMPLES) {
      const vectors = rows.map((row) => Float32Array.from(JSON.parse(row.embedding) as number[]));
      entry.examples = heldExamples(
        rows.map((row) => row.intentName),
        vectors,
      );
    }
    rememberRecent(cache, namespaceId, entry, MAX_CACHED_NAMESPACES);
    return entry;
  }

  /** The namespace's vectors as of its current mark: the copy held, or loaded anew. */
  async function current(namespaceId: string): Promise<CachedExamples> {
    // The mark is read BEFORE the rows: a change committed in between moves it, and the next call reloads.
    const mark = await marks.read(namespaceId);
    const held = cache.get(namespaceId);
    if (held && held.mark === mark) {
      rememberRecent(cache, namespaceId, held, MAX_CACHED_NAMESPACES);
      return held;
    }
    return load(namespaceId, mark);
  }

  async function nearest(namespaceId: string, embedding: number[], k: number): Promise<Neighbour[]> {
    if (marks.kind === 'none') return deps.examples.nearest(namespaceId, embedding, k);
    const { examples } = await current(namespaceId);
    if (!examples) return deps.examples.nearest(namespaceId, embedding, k);
    // The stored vectors are float4: the message is compared at the same precision, as pgvector does.
    const query = Float32Array.from(embedding);
    const queryNorm = Math.sqrt(dot(query, query));
    const dots = dotsWith(query, examples);
    const scored = examples.intentNames.map((intentName, i) => ({
      intentName,
      similarity:
        queryNorm === 0 || examples.norms[i] === 0 ? 0 : dots[i]! / (queryNorm * examples.norms[i]!),
    }));
    scored.sort((a, b) => b.similarity - a.similarity);
    return scored.slice(0, k);
  }

  return {
    /**
     * `{ intent, confidence, alternatives }` for `text` in the namespace.
     * With `embedding` (the message's vector, already computed) the provider
     * is not called. A text without words (a zero vector) or a namespace
     * without examples answers `unknown` with confidence 0.
     * @throws LlmProviderError when the embedding provider fails.
     */
    async classify(namespaceId: string, text: string, embedding?: number[]): Promise<Classification> {
      const vector = embedding ?? (await deps.embeddings.embed([text]))[0];
      if (!vector?.some((v) => v !== 0)) return { intent: UNKNOWN_INTENT, confidence: 0, alternatives: [] };
      return voteIntent(await nearest(namespaceId, vector, VOTING_NEIGHBOURS), {
        matchSimilarity: deps.embeddings.matchSimilarity,
      });
    },

    /** Call after a change to the namespace's examples commits: every process reloads them at its next use. */
    async examplesChanged(namespaceId: string): Promise<void> {
      await marks.bump(namespaceId);
    },
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

export type IntentClassifier = ReturnType<typeof createIntentClassifier>;
