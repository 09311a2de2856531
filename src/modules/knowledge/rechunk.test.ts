import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeBase } from '../../../test/factories.js';
import { uploadTextAsSystem } from '../../../test/knowledge-documents.js';
import { rowsOf } from '../../core/db/client.js';
import { analyseText } from '../rag/text-analysis.js';
import { reembedOutdatedChunks } from './chunk-reembedding.js';
import { indexedText } from './ingestion/synthetic-questions-prompt.js';
import { backfillKeywordTerms } from './keyword-terms-backfill.js';
import { rechunkDocuments } from './rechunk.js';

const ctx = useTestApp({}, { workers: true });

const HANDBOOK = `# Annual leave

Every employee receives twenty-six paid days a year.

## Carry-over

Up to five unused days move into the next year and expire at the end of March.
`;

interface StoredChunk {
  id: string;
  content: string;
  headingPath: string[];
  terms: string;
  embedding: string;
}

async function storedChunks(documentId: string): Promise<StoredChunk[]> {
  return rowsOf<StoredChunk>(
    await ctx.container.db.execute(sql`SELECT id, content, metadata->'headingPath' AS "headingPath",
        terms::text AS terms, embedding::text AS embedding
      FROM chunks WHERE document_id = ${documentId} ORDER BY chunk_index`),
  );
}

async function upload(knowledgeBaseId: string, name: string, text: string): Promise<string> {
  const id = await uploadTextAsSystem(ctx.container, knowledgeBaseId, name, text);
  await expect
    .poll(async () => (await ctx.container.knowledge.repositories.documents.findById(id))?.status, {
      timeout: 25_000,
    })
    .toBe('ready');
  return id;
}

const stemsOf = (text: string) => analyseText(text).flatMap((word) => word.stems);
/** Stored vectors are float4: equal within its precision. */
function expectSameVector(actual: string | number[], expected: string | number[]) {
  const [a, b] = [actual, expected].map((v) => (typeof v === 'string' ? (JSON.parse(v) as number[]) : v));
  expect(a!.length).toBe(b!.length);
  expect(Math.max(...a!.map((x, i) => Math.abs(x - b![i]!)))).toBeLessThan(1e-6);
}

describe('chunks are indexed under their heading path', () => {
  it('keyword terms and embedding include the path; content and reindexing agree', async () => {
    const department = await createDepartment(ctx.container);
    const base = await createKnowledgeBase(ctx.container, { departmentId: department.id });
    const id = await upload(base.id, 'handbook.md', HANDBOOK);
    const [leave, carry] = await storedChunks(id);
    expect(carry).toMatchObject({
      content: 'Up to five unused days move into the next year and expire at the end of March.',
      headingPath: ['Annual leave', 'Carry-over'],
    });
    // "annual" is only in the headings, yet both chunks are found by it.
    for (const chunk of [leave!, carry!]) {
      for (const stem of stemsOf('annual')) expect(chunk.terms).toContain(`'${stem}'`);
    }
    expect(leave!.content).not.toContain('Annual leave');

    // The embedding is of the same text; reindexing (re-embedding, keyword backfill) rebuilds the same.
    const expected = indexedText(carry!.content, null, carry!.headingPath);
    expect(expected).toBe(`Annual leave › Carry-over\n${carry!.content}`);
    expectSameVector(carry!.embedding, (await ctx.container.llm.embeddings.embed([expected]))[0]!);
    await ctx.container.db.execute(
      sql`UPDATE chunks SET embedder = NULL, terms = NULL, term_count = 0, embedding = NULL WHERE document_id = ${id}`,
    );
    await reembedOutdatedChunks({ db: ctx.container.db, embeddings: ctx.container.llm.embeddings });
    await backfillKeywordTerms(ctx.container.db);
    const rebuilt = await storedChunks(id);
    expect(rebuilt.map((c) => c.terms)).toEqual([leave!.terms, carry!.terms]);
    expectSameVector(rebuilt[0]!.embedding, leave!.embedding);
    expectSameVector(rebuilt[1]!.embedding, carry!.embedding);
  });
});

describe('rechunkDocuments', () => {
  it('re-chunks stored documents in place, replacing chunks made by older chunking', async () => {
    const department = await createDepartment(ctx.container);
    const base = await createKnowledgeBase(ctx.container, { departmentId: department.id });
    const id = await upload(base.id, 'handbook.md', HANDBOOK);
    // As an older version stored it: one flat chunk without headings.
    await ctx.container.db.execute(sql`DELETE FROM chunks WHERE document_id = ${id} AND chunk_index > 0`);
    await ctx.container.db.execute(
      sql`UPDATE chunks SET content = ${HANDBOOK}, metadata = '{"headingPath": []}'::jsonb WHERE document_id = ${id}`,
    );
    const { knowledge } = ctx.container;
    const seen: string[] = [];
    const totals = await rechunkDocuments(
      { db: ctx.container.db, documents: knowledge.repositories.documents, ingestion: knowledge.ingestion },
      [id, '00000000-0000-4000-8000-000000000000'],
      (result) => seen.push(`${result.outcome}:${result.chunks}`),
    );
    expect(totals).toEqual({ ready: 1, failed: 0, stale: 0, gone: 1 });
    expect(seen).toEqual(['ready:2', 'gone:null']);
    expect((await storedChunks(id)).map((c) => c.headingPath)).toEqual([
      ['Annual leave'],
      ['Annual leave', 'Carry-over'],
    ]);
    const row = await knowledge.repositories.documents.findById(id);
    expect(row).toMatchObject({ status: 'ready', metadata: { ingestion: { run: 2, chunkCount: 2 } } });
  });
});
