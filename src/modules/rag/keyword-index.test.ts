import { eq, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture } from '../../../test/factories.js';
import { rowsOf } from '../../core/db/client.js';
import { chunks } from '../../core/db/schema/index.js';
import { bm25Reference, exhaustiveBm25Leg, keywordStatsCtes } from './bm25.js';
import {
  buildKeywordBase,
  createKeywordIndex,
  type KeywordIndex,
  keywordCandidates,
  parseTsvector,
} from './keyword-index.js';
import { hybridSearchQuery } from './rag.repository.js';
import { keywordIndexEntry, queryKeywordTerms } from './text-analysis.js';

const ctx = useTestApp();

describe('parseTsvector', () => {
  it('reads lexemes with their number of positions, weights and quotes included', () => {
    expect(parseTsvector(`'laptop':1,4A 'it''s':2 'desk' 'x\\'y':3`)).toEqual([
      ['laptop', 2],
      ["it's", 1],
      ['desk', 1],
      ["x'y", 1],
    ]);
    expect(parseTsvector('')).toEqual([]);
  });
});

describe('keywordCandidates', () => {
  const base = (id: string, rows: Array<[id: string, text: string, heldBack?: boolean]>) =>
    buildKeywordBase(
      id,
      1,
      rows.map(([chunkId, text, heldBack]) => ({
        id: chunkId,
        heldBack: heldBack ?? false,
        ...keywordIndexEntry(text),
      })),
    );

  it('ranks by BM25, breaks ties by id, skips held-back chunks and keeps the best n', () => {
    const a = base('kb-a', [
      ['c3', 'laptop keyboard'],
      ['c1', 'laptop keyboard'],
      ['c2', 'laptop laptop laptop'],
      ['c4', 'laptop laptop laptop', true],
    ]);
    const ranked = keywordCandidates([a], ['laptop'], 2);
    expect(ranked.map((c) => c.id)).toEqual(['c2', 'c1']);
    expect(keywordCandidates([a], ['laptop'], 10).map((c) => c.id)).toEqual(['c2', 'c1', 'c3']);
    expect(keywordCandidates([a], ['printer'], 10)).toEqual([]);
  });
});

/** The SQL reference leg's ids for `text`, best first. */
async function referenceLeg(knowledgeBaseIds: string[], text: string, n: number): Promise<string[]> {
  const kbIds: SQL = sql`${`{${knowledgeBaseIds.join(',')}}`}::uuid[]`;
  const terms = queryKeywordTerms(text);
  const rows = rowsOf<{ id: string }>(
    await ctx.container.db.execute(
      sql`WITH ${keywordStatsCtes(terms, kbIds)} SELECT id FROM ${exhaustiveBm25Leg(kbIds, n)} AS leg`,
    ),
  );
  return rows.map((r) => r.id);
}

/** The in-memory leg's candidates and statistics for `text`, with the versions read as the repository reads them. */
async function indexSearch(index: KeywordIndex, knowledgeBaseIds: string[], text: string, n: number) {
  const rows = rowsOf<{ id: string; version: string | number }>(
    await ctx.container.db.execute(
      sql`SELECT knowledge_base_id AS id, version FROM kb_stats WHERE knowledge_base_id = ANY(${`{${knowledgeBaseIds.join(',')}}`}::uuid[])`,
    ),
  );
  const versions = new Map(rows.map((r) => [r.id, Number(r.version)]));
  const found = await index.candidates(
    ctx.container.db,
    versions,
    knowledgeBaseIds,
    queryKeywordTerms(text),
    n,
  );
  if (!found) throw new Error('the unlimited budget refused a base');
  return found;
}

/** The in-memory leg's ids for `text`. */
async function indexLeg(index: KeywordIndex, knowledgeBaseIds: string[], text: string, n: number) {
  return (await indexSearch(index, knowledgeBaseIds, text, n)).proposed.map((c) => c.id);
}

/** The statistics the SQL reads for `text` from kb_stats and kb_term_stats (keywordStatsCtes). */
async function referenceWeights(knowledgeBaseIds: string[], text: string) {
  const kbIds: SQL = sql`${`{${knowledgeBaseIds.join(',')}}`}::uuid[]`;
  const [row] = rowsOf<{
    terms: string[] | null;
    idfs: number[] | null;
    n: number;
    avgdl: number;
    reference: number;
  }>(
    await ctx.container.db.execute(
      sql`WITH ${keywordStatsCtes(queryKeywordTerms(text), kbIds)}
        SELECT w.terms, w.idfs, k.n, k.avgdl, ${bm25Reference()} AS reference FROM kw_weights w, kw_corpus k`,
    ),
  );
  return {
    terms: row!.terms ?? [],
    idfs: (row!.idfs ?? []).map(Number),
    chunkCount: Number(row!.n),
    avgdl: Number(row!.avgdl),
    reference: Number(row!.reference),
  };
}

/** Inserts one keyword-indexed chunk as ingestion writes it (index 2 of its document). */
async function addChunk(documentId: string, knowledgeBaseId: string, content: string) {
  const [row] = await ctx.container.db
    .insert(chunks)
    .values({ documentId, knowledgeBaseId, chunkIndex: 2, content, ...keywordIndexEntry(content) })
    .returning();
  return row!;
}

const WORDS = [
  'laptop',
  'monitor',
  'keyboard',
  'mouse',
  'desk',
  'chair',
  'printer',
  'badge',
  'parking',
  'vacation',
];

/** A chunk text of `count` words drawn from WORDS by a fixed sequence, so the corpus repeats. */
function chunkText(seed: number, count: number): string {
  return Array.from({ length: count }, (_, i) => WORDS[(seed * 7 + i * i * 3 + i) % WORDS.length]).join(' ');
}

describe('in-memory keyword leg against the SQL reference', () => {
  it('proposes exactly the chunks the exhaustive SQL leg ranks first, over several bases', async () => {
    const department = await createDepartment(ctx.container);
    const first = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [
        { title: 'One', chunks: Array.from({ length: 40 }, (_, i) => chunkText(i, 3 + (i % 9))) },
        { title: 'Two', chunks: Array.from({ length: 25 }, (_, i) => chunkText(i + 40, 2 + (i % 5))) },
      ],
    });
    const second = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [
        { title: 'Three', chunks: Array.from({ length: 30 }, (_, i) => chunkText(i + 90, 4 + (i % 4))) },
      ],
    });
    const heldBack = first.documents[0]!.chunks.slice(0, 5).map((c) => c.id);
    for (const id of heldBack)
      await ctx.container.db.update(chunks).set({ heldBack: true }).where(eq(chunks.id, id));

    const index = createKeywordIndex({ db: ctx.container.db });
    const bases = [first.knowledgeBase.id, second.knowledgeBase.id];
    for (const text of [
      'laptop',
      'Which printer and which chairs?',
      'badge parking vacation desk',
      'mouse keyboard',
    ]) {
      for (const n of [3, 10, 40]) {
        const expected = await referenceLeg(bases, text, n);
        expect(await indexLeg(index, bases, text, n)).toEqual(expected);
        expect(expected.some((id) => heldBack.includes(id))).toBe(false);
      }
    }
  });

  it('holds the statistics the SQL reads, summed over the bases, held-back chunks and absent terms included', async () => {
    const department = await createDepartment(ctx.container);
    const first = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [{ title: 'One', chunks: Array.from({ length: 30 }, (_, i) => chunkText(i, 2 + (i % 7))) }],
    });
    const second = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [
        { title: 'Two', chunks: Array.from({ length: 20 }, (_, i) => chunkText(i + 50, 3 + (i % 3))) },
      ],
    });
    await ctx.container.db
      .update(chunks)
      .set({ heldBack: true })
      .where(eq(chunks.id, first.documents[0]!.chunks[0]!.id));
    const index = createKeywordIndex({ db: ctx.container.db });
    const bases = [first.knowledgeBase.id, second.knowledgeBase.id];
    for (const text of ['laptop', 'badge parking vacation desk and a stapler', 'stapler toner']) {
      const { weights } = await indexSearch(index, bases, text, 10);
      const expected = await referenceWeights(bases, text);
      expect(weights.terms).toEqual(expected.terms);
      expect(weights.idfs).toHaveLength(expected.idfs.length);
      for (const [i, idf] of weights.idfs.entries()) expect(idf).toBeCloseTo(expected.idfs[i]!, 12);
      expect(weights.chunkCount).toBe(expected.chunkCount);
      expect(weights.avgdl).toBeCloseTo(expected.avgdl, 12);
      expect(weights.reference).toBeCloseTo(expected.reference, 12);
    }
  });

  it('follows every write of the chunks: insert, held back and released, deleted', async () => {
    const department = await createDepartment(ctx.container);
    const { knowledgeBase, documents } = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [{ title: 'Seed', chunks: ['laptop policy', 'monitor policy'] }],
    });
    const bases = [knowledgeBase.id];
    const index = createKeywordIndex({ db: ctx.container.db });
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual([]);

    const added = await addChunk(documents[0]!.document.id, knowledgeBase.id, 'printer toner');
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual([added.id]);

    await ctx.container.db.update(chunks).set({ heldBack: true }).where(eq(chunks.id, added.id));
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual([]);
    await ctx.container.db.update(chunks).set({ heldBack: false }).where(eq(chunks.id, added.id));
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual([added.id]);

    await ctx.container.db.delete(chunks).where(eq(chunks.id, added.id));
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual([]);
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual(await referenceLeg(bases, 'printer', 10));
  });

  it('drops the index of a base nobody searched for the idle period, and loads it again when asked', async () => {
    const department = await createDepartment(ctx.container);
    const fixture = () =>
      createKnowledgeFixture(ctx.container, {
        departmentId: department.id,
        documents: [{ title: 'Seed', chunks: ['laptop policy', 'printer policy'] }],
      });
    const [busy, idle] = [(await fixture()).knowledgeBase.id, (await fixture()).knowledgeBase.id];
    let clock = 0;
    const index = createKeywordIndex({ db: ctx.container.db, idleDropMs: 1000, now: () => clock });
    await indexLeg(index, [busy], 'printer', 10);
    await indexLeg(index, [idle], 'printer', 10);
    expect(index.heldBases().sort()).toEqual([busy, idle].sort());

    clock = 600;
    await indexLeg(index, [busy], 'printer', 10);
    clock = 1200;
    // The idle base was last searched 1 200 ms ago; the busy one 600 ms ago.
    await indexLeg(index, [busy], 'printer', 10);
    expect(index.heldBases()).toEqual([busy]);

    expect(await indexLeg(index, [idle], 'printer', 10)).toEqual(await referenceLeg([idle], 'printer', 10));
    expect(index.heldBases().sort()).toEqual([busy, idle].sort());
  });

  it('searches a base that loads slowly as last loaded while it reloads, never proposing what the table no longer serves', async () => {
    const department = await createDepartment(ctx.container);
    const { knowledgeBase, documents } = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [{ title: 'Seed', chunks: ['laptop policy', 'printer policy'] }],
    });
    const bases = [knowledgeBase.id];
    // Every load counts as slow: after the first, reloads happen in the background.
    const index = createKeywordIndex({ db: ctx.container.db, blockingReloadMaxMs: -1 });
    const printer = documents[0]!.chunks[1]!.id;
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual([printer]);

    const added = await addChunk(documents[0]!.document.id, knowledgeBase.id, 'printer toner');
    // This search starts the reload and answers from the index it has.
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual([printer]);
    await expect.poll(() => indexLeg(index, bases, 'printer', 10)).toHaveLength(2);
    expect(await indexLeg(index, bases, 'printer', 10)).toEqual(await referenceLeg(bases, 'printer', 10));

    // An index that has not caught up may still propose a chunk since held back or deleted: the
    // query checks every candidate against the table and answers neither.
    await ctx.container.db.update(chunks).set({ heldBack: true }).where(eq(chunks.id, added.id));
    await ctx.container.db.delete(chunks).where(eq(chunks.id, printer));
    const rows = rowsOf<{ chunkId: string }>(
      await ctx.container.db.execute(
        hybridSearchQuery({
          embedding: null,
          text: 'printer',
          terms: queryKeywordTerms('printer'),
          knowledgeBaseIds: bases,
          candidates: 10,
          shortlist: 10,
          keywordCandidates: [printer, added.id],
        }),
      ),
    );
    expect(rows).toEqual([]);
  });

  it('leaves the version alone when a write does not touch the keyword leg', async () => {
    const department = await createDepartment(ctx.container);
    const { knowledgeBase, documents } = await createKnowledgeFixture(ctx.container, {
      departmentId: department.id,
      documents: [{ title: 'Seed', chunks: ['laptop policy'] }],
    });
    const version = async () =>
      rowsOf<{ version: string | number }>(
        await ctx.container.db.execute(
          sql`SELECT version FROM kb_stats WHERE knowledge_base_id = ${knowledgeBase.id}`,
        ),
      )[0]!.version;
    const before = await version();
    await ctx.container.db
      .update(chunks)
      .set({ metadata: { page: 2 } })
      .where(eq(chunks.id, documents[0]!.chunks[0]!.id));
    expect(await version()).toBe(before);
  });
});
