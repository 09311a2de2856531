import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture } from '../../../test/factories.js';
import { hybridQueryOf } from '../../../test/hybrid-query.js';
import { rowsOf } from '../../core/db/client.js';
import { chunks } from '../../core/db/schema/index.js';
import { createLocalEmbedder } from '../../core/llm/local-embedder.js';
import { createShortlistReader } from './memory-search.js';
import type { HybridQuery } from './rag.repository.js';
import { createVectorIndex, parseVectorSend, usearch } from './vector-index.js';

const ctx = useTestApp();

const TOPICS = [
  'Vacation requests go through the HR portal two weeks ahead.',
  'Laptops are replaced every three years by the IT desk.',
  'Expense reports need receipts for every purchase above twenty euros.',
  'The office opens at eight and the parking garage closes at nine.',
  'Passwords must be changed every ninety days and never shared.',
  'Travel bookings for conferences are made by the travel team.',
];

async function corpus() {
  const department = await createDepartment(ctx.container);
  const fixture = await createKnowledgeFixture(ctx.container, {
    departmentId: department.id,
    documents: TOPICS.map((text, i) => ({
      title: `T${i}`,
      chunks: [text, `${text} Ask your manager first.`],
    })),
  });
  return fixture;
}

function query(knowledgeBaseId: string, text: string, vectorLeg?: 'database'): HybridQuery {
  const dimensions = ctx.container.config.embeddingDimensions;
  return hybridQueryOf(dimensions, [knowledgeBaseId], text, vectorLeg ? { vectorLeg } : {});
}

const rag = () => ctx.container.rag.repositories.rag;

async function search(knowledgeBaseId: string, text: string, vectorLeg?: 'database') {
  return rag().hybridSearch(query(knowledgeBaseId, text, vectorLeg), 100);
}

describe.skipIf(!usearch)('in-memory vector index', () => {
  it('answers what the database answers, once warmed', async () => {
    const { knowledgeBase } = await corpus();
    await rag().warmSearch([knowledgeBase.id]);
    for (const text of ['how do I ask for vacation', 'my laptop is old', 'parking hours', 'xyzzy']) {
      const before = rag().servedSearches();
      const fromMemory = await search(knowledgeBase.id, text);
      expect(rag().servedSearches().memory).toBe(before.memory + 1);
      const fromDatabase = await search(knowledgeBase.id, text, 'database');
      expect(rag().servedSearches().database).toBe(before.database + 1);
      expect(fromMemory.map((r) => r.chunkId)).toEqual(fromDatabase.map((r) => r.chunkId));
      for (const [i, row] of fromDatabase.entries()) {
        const { cosine, bm25, keyword, score, ...rest } = fromMemory[i]!;
        expect(rest).toEqual({
          ...row,
          cosine: undefined,
          bm25: undefined,
          keyword: undefined,
          score: undefined,
        });
        // Cosines in float32 here and in pgvector: equal to about 6 digits; BM25 and pg_trgm's
        // similarity exactly but for the last digits of a sum.
        expect(cosine).toBeCloseTo(row.cosine, 5);
        expect(bm25).toBeCloseTo(row.bm25, 12);
        expect(keyword).toBeCloseTo(row.keyword, 12);
        expect(score).toBeCloseTo(row.score, 5);
      }
    }
  });

  it('takes the bases as the caller read them, and leaves a search whose snapshot is stale to the database', async () => {
    const { knowledgeBase } = await corpus();
    await rag().warmSearch([knowledgeBase.id]);
    const [stats] = rowsOf<{ version: string }>(
      await ctx.container.db.execute(
        sql`SELECT version FROM kb_stats WHERE knowledge_base_id = ${knowledgeBase.id}`,
      ),
    );
    const snapshot = (version: number, ragWeights: unknown = { vector: 0.7, keyword: 0.3 }) => ({
      id: knowledgeBase.id,
      departmentId: knowledgeBase.departmentId,
      ragWeights,
      version,
    });
    const asked = query(knowledgeBase.id, 'how do I ask for vacation');
    const plain = await rag().hybridSearch(asked, 100);

    const current = rag().servedSearches();
    const given = await rag().hybridSearch({ ...asked, bases: [snapshot(Number(stats!.version))] }, 100);
    expect(rag().servedSearches().memory).toBe(current.memory + 1);
    expect(given).toEqual(plain);
    // The weights given are the ones scored with: all on the vector leg, the score is the cosine.
    const vectorOnly = await rag().hybridSearch(
      { ...asked, bases: [snapshot(Number(stats!.version), { vector: 1, keyword: 0 })] },
      100,
    );
    for (const row of vectorOnly) expect(row.score).toBeCloseTo(row.cosine, 12);

    // A snapshot older than the index (the base changed after the caller read it): the database answers.
    const stale = rag().servedSearches();
    const fromStale = await rag().hybridSearch(
      { ...asked, bases: [snapshot(Number(stats!.version) - 1)] },
      100,
    );
    expect(rag().servedSearches().database).toBe(stale.database + 1);
    expect(fromStale.map((r) => r.chunkId)).toEqual(plain.map((r) => r.chunkId));
  });

  it('keeps to the departments asked for, as the database does', async () => {
    const { knowledgeBase } = await corpus();
    const other = await createDepartment(ctx.container);
    await rag().warmSearch([knowledgeBase.id]);
    for (const [departmentIds, found] of [
      [[knowledgeBase.departmentId], true],
      [[other.id], false],
    ] as const) {
      const fenced = (vectorLeg?: 'database') =>
        rag().hybridSearch({ ...query(knowledgeBase.id, 'laptop', vectorLeg), departmentIds }, 100);
      const fromMemory = await fenced();
      expect(fromMemory.length > 0).toBe(found);
      expect(fromMemory.map((r) => r.chunkId)).toEqual((await fenced('database')).map((r) => r.chunkId));
    }
  });

  it('lets the database serve a base it does not hold, and one whose chunks changed, until it caught up', async () => {
    const fixture = await corpus();
    const kb = fixture.knowledgeBase.id;
    const before = rag().servedSearches();
    await search(kb, 'vacation');
    expect(rag().servedSearches().database).toBe(before.database + 1);
    await rag().warmSearch([kb]);

    // A new chunk moves the version: found at once (the database's leg), then from memory.
    const embedder = createLocalEmbedder(ctx.container.config.embeddingDimensions);
    const text = 'Bicycles may be parked in the inner courtyard.';
    const [added] = await ctx.container.db
      .insert(chunks)
      .values({
        documentId: fixture.documents[0]!.document.id,
        knowledgeBaseId: kb,
        chunkIndex: 9,
        content: text,
        tokenCount: 8,
        embedding: embedder.embedOne(text),
      })
      .returning();
    const stale = rag().servedSearches();
    expect((await search(kb, 'bicycles parked in the inner courtyard')).map((r) => r.chunkId)).toContain(
      added!.id,
    );
    expect(rag().servedSearches().database).toBe(stale.database + 1);
    await rag().warmSearch([kb]);
    const warm = rag().servedSearches();
    expect((await search(kb, 'bicycles parked in the inner courtyard')).map((r) => r.chunkId)).toContain(
      added!.id,
    );
    expect(rag().servedSearches().memory).toBe(warm.memory + 1);

    // Held back, it leaves the index; re-embedded, the index takes the new vector.
    await ctx.container.db.update(chunks).set({ heldBack: true }).where(eq(chunks.id, added!.id));
    await rag().warmSearch([kb]);
    expect((await search(kb, 'bicycles parked in the inner courtyard')).map((r) => r.chunkId)).not.toContain(
      added!.id,
    );
    const target = fixture.documents[1]!.chunks[0]!;
    await ctx.container.db
      .update(chunks)
      .set({ embedding: embedder.embedOne('bicycle courtyard parking') })
      .where(eq(chunks.id, target.id));
    await rag().warmSearch([kb]);
    const moved = rag().servedSearches();
    const rows = await search(kb, 'bicycle courtyard parking');
    expect(rag().servedSearches().memory).toBe(moved.memory + 1);
    expect(rows.find((r) => r.chunkId === target.id)?.cosine).toBeCloseTo(1, 5);
  });
});

describe('parseVectorSend', () => {
  it("reads pgvector's binary form", async () => {
    const [row] = rowsOf<{ bytes: Uint8Array }>(
      await ctx.container.db.execute(sql`SELECT vector_send('[1.5,-2,0.25]'::vector) AS bytes`),
    );
    expect([...parseVectorSend(row!.bytes)]).toEqual([1.5, -2, 0.25]);
  });
});

describe.skipIf(!usearch)('createVectorIndex', () => {
  async function loadedIndex(now: () => number) {
    const { knowledgeBase } = await corpus();
    const index = createVectorIndex({ db: ctx.container.db, idleDropMs: 1000, now });
    await index.warm([knowledgeBase.id]);
    const version = index.heldBases().get(knowledgeBase.id);
    const versions = new Map(version == null ? [] : [[knowledgeBase.id, version]]);
    return { index, kb: knowledgeBase.id, versions };
  }

  it('serves a base only while current with the version asked, and with vectors of the same length', async () => {
    const { index, kb, versions } = await loadedIndex(() => 0);
    const dimensions = ctx.container.config.embeddingDimensions;
    expect(index.current(versions, [kb], dimensions)).toHaveLength(1);
    expect(index.current(versions, [kb], dimensions + 1)).toBeNull();
    expect(index.current(new Map([[kb, (versions.get(kb) ?? 0) + 1]]), [kb], dimensions)).toBeNull();
  });

  it('drops a base nobody searched for the idle period, and loads it again on the next search', async () => {
    let clock = 0;
    const { index, kb, versions } = await loadedIndex(() => clock);
    const dimensions = ctx.container.config.embeddingDimensions;
    clock = 500;
    expect(index.current(versions, [kb], dimensions)).toHaveLength(1);
    clock = 2000;
    // Past the idle period: dropped at this look, a reload starts, and the database serves meanwhile.
    expect(index.current(versions, [kb], dimensions)).toBeNull();
    await index.warm([kb]);
    expect(index.current(versions, [kb], dimensions)).toHaveLength(1);
  });
});

describe('createShortlistReader', () => {
  it('answers the searches that read at once from one statement, each its own bases’ chunks that are not held back', async () => {
    const [one, two] = [await corpus(), await corpus()];
    const idsOf = async (knowledgeBaseId: string) =>
      (
        await ctx.container.db
          .select({ id: chunks.id })
          .from(chunks)
          .where(eq(chunks.knowledgeBaseId, knowledgeBaseId))
          .orderBy(chunks.id)
      ).map((row) => row.id);
    const [oneIds, twoIds] = [await idsOf(one.knowledgeBase.id), await idsOf(two.knowledgeBase.id)];
    await ctx.container.db.update(chunks).set({ heldBack: true }).where(eq(chunks.id, oneIds[0]!));
    const read = createShortlistReader(ctx.container.db);
    // Asked together, they go in one batch; each also names a chunk of the other's base.
    const [fromOne, fromTwo, fromBoth] = await Promise.all([
      read({ ids: [...oneIds, twoIds[0]!], knowledgeBaseIds: [one.knowledgeBase.id] }),
      read({ ids: [oneIds[1]!, ...twoIds], knowledgeBaseIds: [two.knowledgeBase.id] }),
      read({
        ids: [oneIds[0]!, oneIds[2]!, twoIds[1]!],
        knowledgeBaseIds: [one.knowledgeBase.id, two.knowledgeBase.id],
      }),
    ]);
    expect([...fromOne.keys()].sort()).toEqual(oneIds.slice(1));
    expect([...fromTwo.keys()].sort()).toEqual(twoIds);
    expect([...fromBoth.keys()].sort()).toEqual([oneIds[2]!, twoIds[1]!].sort());
    const row = fromTwo.get(twoIds[0]!)!;
    expect(row.knowledgeBaseId).toBe(two.knowledgeBase.id);
    expect(row.title).toMatch(/^T[0-9]$/);
    expect(TOPICS.some((topic) => row.content.startsWith(topic))).toBe(true);
  });
});
