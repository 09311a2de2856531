import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeBase, createKnowledgeFixture } from '../../../test/factories.js';
import { uploadTextAsSystem } from '../../../test/knowledge-documents.js';
import { rowsOf } from '../../core/db/client.js';
import { backfillKeywordTerms } from './keyword-terms-backfill.js';

const ctx = useTestApp({}, { workers: true });

/** The BM25 statistics as stored, and as recomputed from the chunks themselves. */
async function statistics(knowledgeBaseId: string) {
  const { db } = ctx.container;
  const stored = rowsOf<{ term: string; df: number }>(
    await db.execute(
      sql`SELECT term, df FROM kb_term_stats WHERE knowledge_base_id = ${knowledgeBaseId} ORDER BY term`,
    ),
  );
  const recomputed = rowsOf<{ term: string; df: number }>(
    await db.execute(sql`SELECT t.lexeme AS term, count(*)::int AS df FROM chunks c, unnest(c.terms) t
      WHERE c.knowledge_base_id = ${knowledgeBaseId} GROUP BY t.lexeme ORDER BY t.lexeme`),
  );
  const [corpus] = rowsOf<{ chunkCount: number; totalTerms: number }>(
    await db.execute(sql`SELECT chunk_count AS "chunkCount", total_terms::int AS "totalTerms"
      FROM kb_stats WHERE knowledge_base_id = ${knowledgeBaseId}`),
  );
  const [actual] = rowsOf<{ chunkCount: number; totalTerms: number }>(
    await db.execute(sql`SELECT count(*)::int AS "chunkCount", coalesce(sum(term_count), 0)::int AS "totalTerms"
      FROM chunks WHERE knowledge_base_id = ${knowledgeBaseId} AND terms IS NOT NULL`),
  );
  return { stored, recomputed, corpus: corpus ?? { chunkCount: 0, totalTerms: 0 }, actual };
}

async function expectCurrent(knowledgeBaseId: string) {
  const stats = await statistics(knowledgeBaseId);
  expect(stats.stored).toEqual(stats.recomputed);
  expect(stats.corpus).toEqual(stats.actual);
  return stats;
}

async function upload(knowledgeBaseId: string, name: string, text: string) {
  const id = await uploadTextAsSystem(ctx.container, knowledgeBaseId, name, text);
  await settled(id, 1);
  return id;
}

async function settled(documentId: string, run: number) {
  await expect
    .poll(
      async () => {
        const row = await ctx.container.knowledge.repositories.documents.findById(documentId);
        const ingestion = row?.metadata.ingestion as { run?: number } | undefined;
        return ingestion?.run === run ? row?.status : 'waiting';
      },
      { timeout: 25_000, interval: 100 },
    )
    .toBe('ready');
}

describe('BM25 statistics follow the chunks', () => {
  it('after ingestion, reprocessing, document delete and knowledge base delete', async () => {
    const department = await createDepartment(ctx.container);
    const base = await createKnowledgeBase(ctx.container, { departmentId: department.id });
    const first = await upload(
      base.id,
      'leave.txt',
      'Annual leave is 24 days. Leave requests go to the team lead.',
    );
    await upload(base.id, 'laptops.txt', 'Laptops are replaced every three years by the IT service desk.');

    const ingested = await expectCurrent(base.id);
    expect(ingested.corpus.chunkCount).toBe(2);
    expect(ingested.stored.find((s) => s.term === 'leav')?.df).toBe(1);

    await ctx.container.knowledge.documents.reprocess(ctx.container.system, first);
    await settled(first, 2);
    const reprocessed = await expectCurrent(base.id);
    expect(reprocessed.corpus).toEqual(ingested.corpus);

    await ctx.container.knowledge.documents.delete(ctx.container.system, first);
    const deleted = await expectCurrent(base.id);
    expect(deleted.corpus.chunkCount).toBe(1);
    expect(deleted.stored.some((s) => s.term === 'leav')).toBe(false);

    await ctx.container.knowledge.bases.delete(ctx.container.system, base.id);
    const gone = await statistics(base.id);
    expect(gone.stored).toEqual([]);
    expect(gone.corpus).toEqual({ chunkCount: 0, totalTerms: 0 });
  });

  it('backfills chunks stored without terms, and the statistics follow', async () => {
    const department = await createDepartment(ctx.container);
    const { knowledgeBase } = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [
        { title: 'Old', chunks: ['Parking permits are renewed in January.', 'Badges come from reception.'] },
      ],
    });
    // As stored before the keyword leg existed.
    await ctx.container.db.execute(
      sql`UPDATE chunks SET terms = NULL, term_count = 0 WHERE knowledge_base_id = ${knowledgeBase.id}`,
    );
    expect((await expectCurrent(knowledgeBase.id)).corpus.chunkCount).toBe(0);

    expect(await backfillKeywordTerms(ctx.container.db)).toBeGreaterThanOrEqual(2);
    const filled = await expectCurrent(knowledgeBase.id);
    expect(filled.corpus.chunkCount).toBe(2);
    expect(filled.stored.find((s) => s.term === 'permit')?.df).toBe(1);
    expect(await backfillKeywordTerms(ctx.container.db)).toBe(0);
  });
});
