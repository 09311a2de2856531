import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture } from '../../../test/factories.js';
import { queryKeywordTerms } from './text-analysis.js';

const ctx = useTestApp();

/**
 * Three chunks of 3, 2 and 4 indexed words (N = 3, average length 3):
 * laptop ×2 in A and ×1 in B (df 2), mouse ×1 in C (df 1).
 */
async function tinyCorpus() {
  const department = await createDepartment(ctx.container);
  const { knowledgeBase } = await createKnowledgeFixture(ctx.container, {
    departmentId: department.id,
    documents: [
      { title: 'A', chunks: ['laptop laptop monitor'] },
      { title: 'B', chunks: ['laptop keyboard'] },
      { title: 'C', chunks: ['monitor keyboard mouse desk'] },
    ],
  });
  return knowledgeBase.id;
}

async function bm25ByTitle(knowledgeBaseId: string, text: string, keywordLeg?: 'exhaustive') {
  const rows = await ctx.container.rag.repositories.rag.hybridSearch(
    {
      embedding: null,
      text,
      terms: queryKeywordTerms(text),
      knowledgeBaseIds: [knowledgeBaseId],
      candidates: 10,
      shortlist: 10,
      ...(keywordLeg ? { keywordLeg } : {}),
    },
    100,
  );
  return Object.fromEntries(rows.map((r) => [r.title, r.bm25]));
}

describe('Okapi BM25 in SQL (k1 1.2, b 0.75)', () => {
  it('matches the hand-computed scores of a tiny corpus', async () => {
    const kb = await tinyCorpus();
    // idf(laptop) = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.470004
    // A: tf 2, length 3: 0.470004 × 2 × 2.2 / (2 + 1.2 × (0.25 + 0.75 × 3/3)) = 0.646255
    // B: tf 1, length 2: 0.470004 × 2.2 / (1 + 1.2 × (0.25 + 0.75 × 2/3)) = 0.544215
    expect(await bm25ByTitle(kb, 'laptops')).toEqual({
      A: expect.closeTo(0.646255, 5),
      B: expect.closeTo(0.544215, 5),
    });
    // idf(mouse) = ln(1 + 2.5 / 1.5) = 0.980829; C: tf 1, length 4: 0.980829 × 2.2 / (1 + 1.2 × 1.25) = 0.863130
    const both = await bm25ByTitle(kb, 'Which laptop and which mice? The laptop mouse');
    expect(both.C).toBeCloseTo(0.86313, 5);
    expect(both.A).toBeCloseTo(0.646255, 5);
  });

  it('gives the same scores bounded and exhaustive on a small base', async () => {
    const kb = await tinyCorpus();
    expect(await bm25ByTitle(kb, 'laptop keyboard mouse')).toEqual(
      await bm25ByTitle(kb, 'laptop keyboard mouse', 'exhaustive'),
    );
  });

  it('finds nothing by keyword for terms no chunk holds', async () => {
    const kb = await tinyCorpus();
    expect(await bm25ByTitle(kb, 'printer toner')).toEqual({});
  });
});
