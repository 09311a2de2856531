import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Page, pagedList } from './paged-list.js';

/** An in-memory list of `size` rows that records how many times it was counted. */
function listOf(size: number) {
  const all = Array.from({ length: size }, (_, index) => index);
  const calls = { rows: 0, total: 0 };
  return {
    calls,
    run: (page: Page) =>
      pagedList({
        page,
        rows: async ({ limit, offset }) => {
          calls.rows++;
          return all.slice(offset, offset + limit);
        },
        total: async () => {
          calls.total++;
          return [{ total: all.length }];
        },
      }),
  };
}

describe('pagedList', () => {
  it('answers a short first page without counting', async () => {
    const list = listOf(3);
    expect(await list.run({ limit: 20, offset: 0 })).toEqual({ rows: [0, 1, 2], total: 3 });
    expect(list.calls).toEqual({ rows: 1, total: 0 });
  });

  it('answers an empty first page with total 0 without counting', async () => {
    const list = listOf(0);
    expect(await list.run({ limit: 20, offset: 0 })).toEqual({ rows: [], total: 0 });
    expect(list.calls.total).toBe(0);
  });

  it('counts when the page is full, since more rows may follow', async () => {
    const list = listOf(25);
    expect(await list.run({ limit: 20, offset: 0 })).toEqual({
      rows: Array.from({ length: 20 }, (_, i) => i),
      total: 25,
    });
    expect(list.calls.total).toBe(1);
  });

  it('counts when a page past the first is empty', async () => {
    const list = listOf(5);
    expect(await list.run({ limit: 10, offset: 40 })).toEqual({ rows: [], total: 5 });
    expect(list.calls.total).toBe(1);
  });

  it('derives the total from a short later page', async () => {
    const list = listOf(25);
    expect((await list.run({ limit: 20, offset: 20 })).total).toBe(25);
    expect(list.calls.total).toBe(0);
  });

  it('reads 0 when the count query answers no row', async () => {
    const result = await pagedList({
      page: { limit: 1, offset: 0 },
      rows: async () => ['a'],
      total: async () => [],
    });
    expect(result).toEqual({ rows: ['a'], total: 0 });
  });

  it('always answers the true total, whatever the list size and page', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 400 }),
        async (size, limit, offset) => {
          const list = listOf(size);
          const result = await list.run({ limit, offset });
          expect(result.total).toBe(size);
          expect(result.rows).toEqual(
            Array.from({ length: Math.max(0, Math.min(limit, size - offset)) }, (_, i) => offset + i),
          );
          expect(list.calls.rows).toBe(1);
        },
      ),
    );
  });
});
