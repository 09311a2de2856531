import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture } from '../../../test/factories.js';
import { hybridQueryOf } from '../../../test/hybrid-query.js';
import { knowledgeBases } from '../../core/db/schema/index.js';
import type { RagWeights } from '../../core/db/schema/knowledge.js';
import { blendedScore, type HybridRow, normalisedWeights } from './hybrid-search.js';
import { createRagRepository, type HybridQuery } from './rag.repository.js';
import { usearch } from './vector-index.js';

const ctx = useTestApp();

const DOCUMENTS = [
  [
    'Vacation requests go through the HR portal two weeks ahead.',
    'Sick leave needs a note after three days.',
  ],
  [
    'Laptops are replaced every three years by the IT desk.',
    'A broken laptop screen is repaired within a week.',
  ],
  ['The office opens at eight and the parking garage closes at nine.', 'Visitors park on level two.'],
];

/** Three bases of one department: default weights, keyword-leaning weights, and weights that do not count. */
async function corpus() {
  const department = await createDepartment(ctx.container);
  const weights = [
    { vector: 0.7, keyword: 0.3 },
    { vector: 0.2, keyword: 0.8 },
    { vector: -1, keyword: 'x' },
  ];
  const ids: string[] = [];
  for (const [i, ragWeights] of weights.entries()) {
    const { knowledgeBase } = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: DOCUMENTS.map((chunks, d) => ({ title: `B${i} D${d}`, chunks })),
    });
    // Stored as any JSON would be, invalid weights included.
    await ctx.container.db
      .update(knowledgeBases)
      .set({ ragWeights: ragWeights as RagWeights })
      .where(eq(knowledgeBases.id, knowledgeBase.id));
    ids.push(knowledgeBase.id);
  }
  return { ids, weights: new Map(ids.map((id, i) => [id, weights[i]])) };
}

function query(knowledgeBaseIds: string[], text: string): HybridQuery {
  return hybridQueryOf(ctx.container.config.embeddingDimensions, knowledgeBaseIds, text);
}

describe.skipIf(!usearch)('one scoring for every retrieval path', () => {
  it('answers the same rows with the same scores in SQL, with the in-memory keyword leg, and from memory', async () => {
    const { ids, weights } = await corpus();
    const rag = createRagRepository(ctx.container.db);
    await rag.warmSearch(ids);
    for (const text of [
      'when does the parking garage close',
      'my laptop screen broke',
      'vacation',
      'xyzzy',
    ]) {
      const q = query(ids, text);
      const inSql = await rag.hybridSearch({ ...q, keywordLeg: 'exhaustive', vectorLeg: 'database' }, 100);
      const keywordFromMemory = await rag.hybridSearch({ ...q, vectorLeg: 'database' }, 100);
      const served = rag.servedSearches().memory;
      const fromMemory = await rag.hybridSearch(q, 100);
      expect(rag.servedSearches().memory).toBe(served + 1);

      const scores = (rows: HybridRow[]) => new Map(rows.map((row) => [row.chunkId, row]));
      for (const path of [keywordFromMemory, fromMemory]) {
        const byId = scores(path);
        expect([...byId.keys()].sort()).toEqual(inSql.map((row) => row.chunkId).sort());
        for (const row of inSql) {
          // Cosines are float32 in memory (pgvector's float8): equal to about 6 digits; the rest exactly.
          expect(byId.get(row.chunkId)!.cosine).toBeCloseTo(row.cosine, 5);
          expect(byId.get(row.chunkId)!.bm25).toBeCloseTo(row.bm25, 12);
          expect(byId.get(row.chunkId)!.keyword).toBeCloseTo(row.keyword, 12);
          expect(byId.get(row.chunkId)!.score).toBeCloseTo(row.score, 5);
        }
      }
      // Every row's score is the one function's, with its base's weights normalised by the one function.
      for (const row of [...inSql, ...keywordFromMemory, ...fromMemory]) {
        const { nv, nk } = normalisedWeights(weights.get(row.knowledgeBaseId));
        const recomputed = blendedScore({ cosine: row.cosine, bm25n: 0, nv, nk }, row.keyword);
        expect(recomputed.keyword).toBe(row.keyword);
        expect(row.score).toBeCloseTo(recomputed.score, 12);
      }
    }
  });

  it('normalises weights and scores raw figures one way', () => {
    expect(normalisedWeights({ vector: 1, keyword: 3 })).toEqual({ nv: 0.25, nk: 0.75 });
    expect(normalisedWeights({ vector: -2, keyword: 0 })).toEqual({ nv: 0.7, nk: 0.3 });
    expect(normalisedWeights(null)).toEqual({ nv: 0.7, nk: 0.3 });
    expect(blendedScore({ cosine: 0.5, bm25n: 0.2, nv: 0.5, nk: 0.5 }, 0.4)).toEqual({
      keyword: 0.4,
      score: 0.45,
    });
  });
});
