import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database.js';
import { type DatabaseHandle, rowsOf } from './client.js';
import { iterativeScanSupport, setLocalSettings, supportsIterativeScan, vectorLiteral } from './vector.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('vectorLiteral', () => {
  it('writes pgvector text with seven significant digits, and PostgreSQL reads it back', async () => {
    const literal = vectorLiteral([0.123456789, -1, 2e-9]);
    expect(literal).toBe('[0.1234568,-1,2e-9]');
    const [row] = rowsOf<{ dims: number }>(
      await database.db.execute(sql`SELECT vector_dims(${literal}::vector) AS dims`),
    );
    expect(Number(row?.dims)).toBe(3);
  });
});

describe('iterative scan support', () => {
  it('agrees with the installed extension and asks it once', async () => {
    const expected = await supportsIterativeScan(database.db);
    let asked = 0;
    const counting = {
      execute: (query: Parameters<typeof database.db.execute>[0]) => {
        asked++;
        return database.db.execute(query);
      },
    } as unknown as typeof database.db;
    const supported = iterativeScanSupport(counting);
    expect(await supported()).toBe(expected);
    expect(await supported()).toBe(expected);
    expect(asked).toBe(1);
  });
});

describe('setLocalSettings', () => {
  it('sets every value for the transaction only', async () => {
    const inside = await database.db.transaction(async (tx) => {
      await setLocalSettings(tx, [
        ['hnsw.ef_search', '123'],
        ['cpu_operator_cost', '0.1'],
      ]);
      const [row] = rowsOf<{ ef: string; cost: string }>(
        await tx.execute(
          sql`SELECT current_setting('hnsw.ef_search') AS ef, current_setting('cpu_operator_cost') AS cost`,
        ),
      );
      return row;
    });
    expect(inside).toEqual({ ef: '123', cost: '0.1' });
    const [after] = rowsOf<{ cost: string }>(
      await database.db.execute(sql`SELECT current_setting('cpu_operator_cost') AS cost`),
    );
    expect(after?.cost).not.toBe('0.1');
  });
});
