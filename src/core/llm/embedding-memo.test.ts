import { describe, expect, it } from 'vitest';
import { createEmbeddingMemo } from './embedding-memo.js';
import type { EmbeddingProvider } from './llm.js';
import { createLocalEmbedder } from './local-embedder.js';

/** The local embedder, with every request it answers written down. */
function recordedEmbedder() {
  const embedder = createLocalEmbedder(64);
  const requests: string[][] = [];
  const provider: EmbeddingProvider = {
    name: embedder.name,
    dimensions: embedder.dimensions,
    async embed(texts) {
      requests.push([...texts]);
      return embedder.embed(texts);
    },
  };
  return { embedder, provider, requests };
}

describe('embedding memo', () => {
  it('asks the provider once per kept text, and for a fresh text every time, in one request', async () => {
    const { embedder, provider, requests } = recordedEmbedder();
    const memo = createEmbeddingMemo(provider, 10);
    const first = await memo.embed(['legal advice', 'salary'], 'how do I sue?');
    expect(requests).toEqual([['how do I sue?', 'legal advice', 'salary']]);
    expect(first.fresh).toEqual(embedder.embedOne('how do I sue?'));
    expect(first.kept).toEqual([embedder.embedOne('legal advice'), embedder.embedOne('salary')]);

    const second = await memo.embed(['salary', 'legal advice', 'holidays']);
    expect(requests[1]).toEqual(['holidays']);
    expect(second.fresh).toBeNull();
    expect(second.kept).toEqual(['salary', 'legal advice', 'holidays'].map((t) => embedder.embedOne(t)));

    await memo.embed(['salary', 'holidays']);
    await memo.embed([]);
    expect(requests).toHaveLength(2);
  });

  it('lets the least recently used text go when full', async () => {
    const { provider, requests } = recordedEmbedder();
    const memo = createEmbeddingMemo(provider, 2);
    await memo.embed(['a one', 'b two']);
    await memo.embed(['a one']); // b two is now the least recently used
    await memo.embed(['c three']);
    await memo.embed(['a one']);
    expect(requests).toEqual([['a one', 'b two'], ['c three']]);
    await memo.embed(['b two']);
    expect(requests.at(-1)).toEqual(['b two']);
  });

  it('answers every text asked for when they outnumber what it keeps', async () => {
    const { embedder, provider, requests } = recordedEmbedder();
    const memo = createEmbeddingMemo(provider, 1);
    await memo.embed(['a one']);
    const answer = await memo.embed(['a one', 'b two', 'c three']);
    expect(answer.kept).toEqual(['a one', 'b two', 'c three'].map((t) => embedder.embedOne(t)));
    expect(requests).toEqual([['a one'], ['b two', 'c three']]);
  });
});
