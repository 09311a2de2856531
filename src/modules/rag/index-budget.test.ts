import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture } from '../../../test/factories.js';
import { hybridQueryOf } from '../../../test/hybrid-query.js';
import { createIndexBudget, keywordBytesOf, vectorBytesPerChunk } from './index-budget.js';
import { createRagRepository, type HybridQuery } from './rag.repository.js';
import { usearch } from './vector-index.js';

describe('index budget', () => {
  it('evicts the least recently used holdings to make room, never a busy one, and refuses what cannot fit', () => {
    let clock = 0;
    const budget = createIndexBudget({ limitBytes: 100, now: () => clock++ });
    const dropped: string[] = [];
    const drop = (key: string) => () => dropped.push(key);
    expect(budget.reserve('a', 40, drop('a'))).toBe(true);
    expect(budget.reserve('b', 40, drop('b'))).toBe(true);
    budget.touch('a');
    // c needs 40 more: b is the least recently used now.
    expect(budget.reserve('c', 40, drop('c'))).toBe(true);
    expect(dropped).toEqual(['b']);
    expect(budget.usedBytes()).toBe(80);
    // Everything but the busy holdings may go; c is busy, so d (70) cannot fit beside it.
    expect(budget.reserve('d', 70, drop('d'), new Set(['c']))).toBe(false);
    expect(dropped).toEqual(['b', 'a']);
    expect(budget.reserve('e', 101, drop('e'))).toBe(false);
    expect(budget.usedBytes()).toBe(40);
    budget.release('c');
    expect(budget.usedBytes()).toBe(0);
  });

  it('estimates about 8 KB a chunk at 1536 dimensions', () => {
    expect(vectorBytesPerChunk(1536)).toBeGreaterThan(7_500);
    expect(vectorBytesPerChunk(1536)).toBeLessThan(8_500);
    expect(keywordBytesOf(1000, 60_000)).toBeGreaterThan(keywordBytesOf(1000, 30_000));
  });
});

const ctx = useTestApp();

const TEXTS = [
  'Vacation requests go through the HR portal two weeks ahead.',
  'Laptops are replaced every three years by the IT desk.',
  'Expense reports need receipts for every purchase above twenty euros.',
  'The office opens at eight and the parking garage closes at nine.',
];

/** A knowledge base of `TEXTS`, each chunk repeated with a suffix so bases differ in size. */
async function base(copies: number) {
  const department = await createDepartment(ctx.container);
  const { knowledgeBase } = await createKnowledgeFixture(ctx.container, {
    departmentId: department.id,
    documents: TEXTS.map((text, i) => ({
      title: `T${i}`,
      chunks: Array.from({ length: copies }, (_, n) => `${text} Copy ${n}.`),
    })),
  });
  return knowledgeBase.id;
}

function query(knowledgeBaseId: string, text: string): HybridQuery {
  return hybridQueryOf(ctx.container.config.embeddingDimensions, [knowledgeBaseId], text);
}

describe.skipIf(!usearch)('search under a memory budget', () => {
  it('holds the bases that fit, evicts the least recently used, and answers every base the same either way', async () => {
    const dimensions = ctx.container.config.embeddingDimensions;
    const [small, other, large] = [await base(2), await base(2), await base(40)];
    // Room for the two small bases' vectors and keyword indexes, not for the large one's vectors.
    const limitBytes = 2 * (8 * vectorBytesPerChunk(dimensions) + keywordBytesOf(8, 8 * 20)) + 1000;
    const limited = createRagRepository(ctx.container.db, { indexMemoryBytes: limitBytes, dimensions });
    const unlimited = createRagRepository(ctx.container.db, { dimensions });
    const text = 'when does the parking garage close';
    const searchBoth = async (id: string) => {
      const expected = await unlimited.hybridSearch({ ...query(id, text), vectorLeg: 'database' }, 100);
      expect(expected.length).toBeGreaterThan(0);
      const found = await limited.hybridSearch(query(id, text), 100);
      // The same chunks with the same scores; cosines from memory are float32 (pgvector's float8), equal to
      // about 6 digits, so copies whose scores differ by less may swap places.
      const scores = (rows: typeof found) => new Map(rows.map((row) => [row.chunkId, row.score]));
      const foundScores = scores(found);
      expect([...foundScores.keys()].sort()).toEqual([...scores(expected).keys()].sort());
      for (const row of expected) expect(foundScores.get(row.chunkId)).toBeCloseTo(row.score, 5);
    };

    await limited.warmSearch([small, other]);
    const before = limited.servedSearches().memory;
    await searchBoth(small);
    await searchBoth(other);
    expect(limited.servedSearches().memory - before).toBe(2);
    expect(limited.indexMemory().usedBytes).toBeLessThanOrEqual(limitBytes);

    // The large base's vectors never fit: its searches are the database's, answered alike.
    await limited.warmSearch([large]);
    const served = limited.servedSearches();
    await searchBoth(large);
    await searchBoth(large);
    expect(limited.servedSearches().database - served.database).toBe(2);
    expect(limited.indexMemory().usedBytes).toBeLessThanOrEqual(limitBytes);

    // A third small base is held in memory: the budget held two already, so it made room by eviction.
    await searchBoth(other);
    const third = await base(2);
    await limited.warmSearch([third]);
    const beforeThird = limited.servedSearches().memory;
    await searchBoth(third);
    expect(limited.servedSearches().memory).toBe(beforeThird + 1);
    expect(limited.indexMemory().usedBytes).toBeLessThanOrEqual(limitBytes);
    // Whatever was evicted is searched in the database or loaded again: the answers stay the same.
    for (const id of [small, other, third, large]) await searchBoth(id);
    expect(limited.indexMemory().usedBytes).toBeLessThanOrEqual(limitBytes);
  });

  it('keeps every search in the database with a budget of 0', async () => {
    const id = await base(2);
    const none = createRagRepository(ctx.container.db, { indexMemoryBytes: 0 });
    await none.warmSearch([id]);
    const text = 'how do I ask for vacation';
    const rows = await none.hybridSearch(query(id, text), 100);
    expect(rows.length).toBeGreaterThan(0);
    expect(none.servedSearches()).toEqual({ memory: 0, database: 1 });
    expect(none.indexMemory().usedBytes).toBe(0);
  });
});
