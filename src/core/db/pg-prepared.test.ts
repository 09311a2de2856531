import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../test/database.js';
import { adminQuery, withDatabase } from '../../../test/global-setup.js';
import { openPostgres } from './client.js';

const templateUrl = testDatabaseUrl();

describe.skipIf(!templateUrl)('named statements on PostgreSQL', () => {
  const name = `aos_prepared_${process.pid}_${Date.now()}`;
  let database: ReturnType<typeof openPostgres>;

  beforeAll(async () => {
    await adminQuery(templateUrl!, `CREATE DATABASE "${name}"`);
    // One connection, so that every statement below meets the same session.
    database = openPostgres(withDatabase(templateUrl!, name), 1);
    await database.pool.query(
      'CREATE TABLE items (id int PRIMARY KEY, name text); INSERT INTO items VALUES (1, $$one$$)',
    );
  });

  afterAll(async () => {
    await database.close();
    await adminQuery(templateUrl!, `DROP DATABASE IF EXISTS "${name}"`);
  });

  const preparedTexts = async () =>
    (
      await database.pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')
    ).rows.map((row) => row.statement);

  it('prepares a statement with parameters once per text, through the pool and a checked-out connection', async () => {
    const text = 'SELECT name FROM items WHERE id = $1';
    for (let run = 0; run < 3; run++)
      expect((await database.pool.query(text, [1])).rows).toEqual([{ name: 'one' }]);
    const client = await database.pool.connect();
    try {
      expect((await client.query({ text, values: [1], rowMode: 'array' })).rows).toEqual([['one']]);
    } finally {
      client.release();
    }
    expect((await preparedTexts()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('leaves statements without parameters unnamed, so a text may hold several commands', async () => {
    const results = await database.pool.query('SELECT 1 AS a; SELECT 2 AS b');
    expect((results as unknown as { rows: unknown[] }[]).map((result) => result.rows)).toEqual([
      [{ a: 1 }],
      [{ b: 2 }],
    ]);
    expect(await preparedTexts()).not.toContain('SELECT 1 AS a; SELECT 2 AS b');
  });

  it('prepares a statement again when a schema change altered its result columns', async () => {
    const text = 'SELECT * FROM items WHERE id = $1';
    await database.pool.query(text, [1]);
    await database.pool.query("ALTER TABLE items ADD COLUMN extra text DEFAULT 'new'");
    expect((await database.pool.query(text, [1])).rows).toEqual([{ id: 1, name: 'one', extra: 'new' }]);
  });

  it('names nothing when prepared statements are turned off (DATABASE_PREPARED_STATEMENTS=false)', async () => {
    const unnamed = openPostgres(withDatabase(templateUrl!, name), 1, false);
    try {
      const text = 'SELECT name FROM items WHERE id = $1 AND true';
      expect((await unnamed.pool.query(text, [1])).rows).toEqual([{ name: 'one' }]);
      const prepared = await unnamed.pool.query('SELECT count(*)::int AS n FROM pg_prepared_statements');
      expect(prepared.rows).toEqual([{ n: 0 }]);
    } finally {
      await unnamed.close();
    }
  });

  it('reports the schema change, not the aborted transaction, when it happens inside one', async () => {
    const text = 'SELECT * FROM items WHERE id > $1';
    await database.pool.query(text, [0]);
    await database.pool.query('ALTER TABLE items ADD COLUMN later int');
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await expect(client.query(text, [0])).rejects.toMatchObject({ code: '0A000' });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});
