import { rememberRecent } from '../memo.js';
import type { EmbeddingProvider } from './llm.js';

/**
 * Embeddings of texts that recur unchanged (a persona's boundaries, checked
 * against every message), kept per process so that each is asked of the
 * provider once: with a remote provider, a request saved per message. The
 * least recently used text goes when `maxEntries` is reached.
 */
export function createEmbeddingMemo(provider: EmbeddingProvider, maxEntries: number) {
  const held = new Map<string, number[]>();
  return {
    /**
     * The vectors of `kept` (remembered) and of `fresh` (not remembered,
     * when given), in one provider request for what is not held; no request
     * when everything is.
     * @throws LlmProviderError when the provider fails.
     */
    async embed(
      kept: readonly string[],
      fresh: string | null = null,
    ): Promise<{ kept: number[][]; fresh: number[] | null }> {
      // Read what is held first: remembering the new vectors may push out others asked for (more texts than kept).
      const known = new Map<string, number[]>();
      for (const text of kept) {
        const vector = held.get(text);
        if (vector) known.set(text, vector);
      }
      const missing = [...new Set(kept.filter((text) => !known.has(text)))];
      const asked = fresh === null ? missing : [fresh, ...missing];
      const vectors = asked.length > 0 ? await provider.embed(asked) : [];
      const offset = fresh === null ? 0 : 1;
      for (const [i, text] of missing.entries()) known.set(text, vectors[offset + i]!);
      for (const [text, vector] of known) rememberRecent(held, text, vector, maxEntries);
      return {
        kept: kept.map((text) => known.get(text)!),
        fresh: fresh === null ? null : (vectors[0] ?? null),
      };
    },
  };
}

export type EmbeddingMemo = ReturnType<typeof createEmbeddingMemo>;
