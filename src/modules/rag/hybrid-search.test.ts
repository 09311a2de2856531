import { describe, expect, it } from 'vitest';
import {
  fuseRanks,
  fusionWeights,
  type HybridCandidate,
  RRF_K,
  rankRows,
  type ShortlistedChunk,
  shortlistOf,
} from './hybrid-search.js';

const DEFAULT = { nv: 0.7, nk: 0.3 };

function candidate(id: string, cosine: number, bm25n: number, weights = DEFAULT): HybridCandidate {
  return { id, knowledgeBaseId: 'kb', departmentId: 'dep', cosine, bm25: bm25n * 10, bm25n, ...weights };
}

function chunk(trigram: number): ShortlistedChunk {
  return {
    documentId: 'doc',
    title: 't',
    content: 'c',
    chunkIndex: 0,
    headingPath: null,
    scannedBy: null,
    trigram,
  };
}

describe('rank fusion of the hybrid legs', () => {
  it('weighs both legs equally at the default weights and leans as a base leans', () => {
    expect(fusionWeights(0.7, 0.3).vector).toBeCloseTo(0.5, 12);
    expect(fusionWeights(1, 0)).toEqual({ vector: 1, keyword: 0 });
    expect(fusionWeights(0, 1)).toEqual({ vector: 0, keyword: 1 });
    const leaning = fusionWeights(0.9, 0.1);
    expect(leaning.vector).toBeGreaterThan(0.5);
    expect(leaning.vector + leaning.keyword).toBeCloseTo(1, 12);
  });

  it('scores 1 for the first of both legs, shares a rank between equal scores and skips a leg that did not find the row', () => {
    const rows = [
      { cosine: 0.9, keyword: 0.8, ...DEFAULT },
      { cosine: 0.5, keyword: 0.8, ...DEFAULT },
      { cosine: 0.5, keyword: 0, ...DEFAULT },
    ];
    const fused = fuseRanks(rows, (row) => row.keyword);
    expect(fused[0]).toBeCloseTo(1, 12);
    const second = (RRF_K + 1) / (RRF_K + 2);
    expect(fused[1]).toBeCloseTo(0.5 * second + 0.5, 12);
    expect(fused[2]).toBeCloseTo(0.5 * second, 12);
  });

  it("orders by the legs' ranks, whatever the scale of their scores, where a blend of scores follows the wider scale", () => {
    const rows = [candidate('a', 0.9, 0.3), candidate('b', 0.5, 0.6), candidate('c', 0.3, 0.4)];
    // The same vector order on a scale ten times narrower, as another embedder's cosines may be.
    const narrower = rows.map((c) => ({ ...c, cosine: c.cosine / 10 }));
    const blendOrder = (list: HybridCandidate[]) =>
      [...list]
        .sort((x, y) => y.nv * y.cosine + y.nk * y.bm25n - (x.nv * x.cosine + x.nk * x.bm25n))
        .map((c) => c.id);
    expect(blendOrder(rows)).toEqual(['a', 'b', 'c']);
    expect(blendOrder(narrower)).toEqual(['b', 'a', 'c']);
    expect(fuseRanks(narrower, (c) => c.bm25n)).toEqual(fuseRanks(rows, (c) => c.bm25n));
    expect(shortlistOf(narrower, 3).map((c) => c.id)).toEqual(shortlistOf(rows, 3).map((c) => c.id));
  });

  it('shortlists by the fusion with the normalised BM25, then ranks the shortlist with the full keyword score', () => {
    const shortlist = shortlistOf(
      [
        candidate('a', 0.8, 0.2),
        candidate('b', 0.6, 0.9),
        candidate('c', 0.7, 0.5),
        candidate('d', 0.1, 0.1),
      ],
      3,
    );
    expect(shortlist.map((c) => c.id).sort()).toEqual(['a', 'b', 'c']);
    // d, last of both legs, is left out. Trigram lifts a's keyword score above c's: a, first of the
    // vector leg, now second of the keyword leg, leads.
    const rows = rankRows(
      shortlist,
      new Map([
        ['a', chunk(0.7)],
        ['b', chunk(0)],
        ['c', chunk(0.2)],
      ]),
    );
    expect(rows.map((r) => r.chunkId)).toEqual(['a', 'b', 'c']);
    const a = rows[0]!;
    expect(a.keyword).toBe(0.7);
    expect(a.score).toBeCloseTo(0.7 * 0.8 + 0.3 * 0.7, 12);
    expect(rows[2]!.keyword).toBe(0.5);
    for (const [i, row] of rows.entries())
      if (i > 0) expect(row.fused).toBeLessThanOrEqual(rows[i - 1]!.fused);
  });

  it('leaves out a shortlisted candidate whose chunk was not read', () => {
    const rows = rankRows([candidate('a', 0.5, 0.5), candidate('b', 0.4, 0.4)], new Map([['b', chunk(0)]]));
    expect(rows.map((r) => r.chunkId)).toEqual(['b']);
    expect(rows[0]!.fused).toBeCloseTo(1, 12);
  });
});
