import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture } from '../../../test/factories.js';
import { rowsOf } from '../../core/db/client.js';
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

/** The hybrid query's rows for `text` without a vector leg, by document title. */
async function rowsByTitle(knowledgeBaseId: string, text: string, keywordLeg?: 'exhaustive') {
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
  return Object.fromEntries(rows.map((r) => [r.title, r]));
}

async function bm25ByTitle(knowledgeBaseId: string, text: string, keywordLeg?: 'exhaustive') {
  const rows = await rowsByTitle(knowledgeBaseId, text, keywordLeg);
  return Object.fromEntries(Object.entries(rows).map(([title, r]) => [title, r.bm25]));
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

  it('gives the same scores from the in-memory index and the SQL reference', async () => {
    const kb = await tinyCorpus();
    for (const text of ['laptop keyboard mouse', 'is there a printer or a laptop']) {
      // The index's statistics are computed in JavaScript, the reference's in SQL: equal to the last digits.
      const fromIndex = await rowsByTitle(kb, text);
      const reference = await rowsByTitle(kb, text, 'exhaustive');
      expect(Object.keys(fromIndex).sort()).toEqual(Object.keys(reference).sort());
      for (const [title, row] of Object.entries(reference)) {
        expect(fromIndex[title]!.bm25).toBeCloseTo(row.bm25, 12);
        expect(fromIndex[title]!.keyword).toBeCloseTo(row.keyword, 12);
        expect(fromIndex[title]!.score).toBeCloseTo(row.score, 12);
      }
    }
  });

  it('finds nothing by keyword for terms no chunk holds', async () => {
    const kb = await tinyCorpus();
    expect(await bm25ByTitle(kb, 'printer toner')).toEqual({});
  });
});

describe('keyword score: BM25 over the query reference, or trigram when greater', () => {
  const trigram = async (text: string, content: string) =>
    Number(
      rowsOf<{ s: number }>(
        await ctx.container.db.execute(sql`SELECT word_similarity(${text}, ${content}) AS s`),
      )[0]!.s,
    );

  it('counts a query term no chunk holds in the reference, at df 0', async () => {
    const kb = await tinyCorpus();
    // Terms printer (no chunk holds it) and laptop; the stop words only dilute the trigram.
    // Reference = idf(laptop) + idf(printer, df 0) = ln 1.6 + ln(1 + 3.5 / 0.5) = 0.470004 + 2.079442.
    // A: 0.646255 / 2.549446 = 0.253488 and B: 0.544215 / 2.549446 = 0.213463: laptop is only
    // the common half of the query (with the held terms alone as reference both would score 1).
    const text = 'is there a printer or a laptop for them and for all of us';
    const rows = await rowsByTitle(kb, text);
    expect(Object.keys(rows).sort()).toEqual(['A', 'B']);
    expect(rows.A!.keyword).toBeCloseTo(0.253488, 5);
    expect(rows.B!.keyword).toBeCloseTo(0.213463, 5);
    // The trigram similarity is lower here, so these are the BM25 parts.
    expect(await trigram(text, 'laptop laptop monitor')).toBeLessThan(0.2);
    expect(await trigram(text, 'laptop keyboard')).toBeLessThan(0.2);
  });

  it('scores a chunk holding every query term above the reference at 1', async () => {
    const kb = await tinyCorpus();
    // Reference = idf(laptop) = 0.470004; A scores 0.646255 and B 0.544215, both capped at 1.
    const rows = await rowsByTitle(kb, 'laptops');
    expect(rows.A!.keyword).toBe(1);
    expect(rows.B!.keyword).toBe(1);
  });

  it('takes the trigram similarity when it is greater (a typo the stems miss)', async () => {
    const kb = await tinyCorpus();
    // "keybord" stems to a term no chunk holds. Reference = ln 8 + idf(mouse) = 2.079442 + 0.980829;
    // C: BM25 0.863130 / 3.060271 = 0.282046, below the letters' similarity to "keyboard mouse".
    const text = 'keybord mouse';
    const rows = await rowsByTitle(kb, text);
    const tri = await trigram(text, 'monitor keyboard mouse desk');
    expect(tri).toBeGreaterThan(0.5);
    expect(rows.C!.keyword).toBeCloseTo(tri, 6);
  });
});
