import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteClient, parameterText } from './pglite-client.js';

describe('parameterText', () => {
  it('writes each JavaScript value in the text form PostgreSQL parses', () => {
    expect(parameterText(null)).toBeNull();
    expect(parameterText(undefined)).toBeNull();
    expect(parameterText('it\'s "quoted"')).toBe('it\'s "quoted"');
    expect(parameterText(42)).toBe('42');
    expect(parameterText(12345678901234567890n)).toBe('12345678901234567890');
    expect(parameterText(true)).toBe('true');
    expect(parameterText(new Date('2026-11-25T10:00:00.000Z'))).toBe('2026-11-25T10:00:00.000Z');
    expect(parameterText(new Uint8Array([0, 15, 255]))).toBe('\\x000fff');
    expect(parameterText({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
    expect(parameterText(['a', 'b "c"', 'd\\e', null])).toBe('{"a","b \\"c\\"","d\\\\e",null}');
    expect(parameterText([])).toBe('{}');
  });
});

describe('PgliteClient', () => {
  let client: PgliteClient;

  beforeAll(async () => {
    client = await PgliteClient.create();
    await client.exec(
      'CREATE TABLE items (id int PRIMARY KEY, name text, tags text[], meta jsonb, at timestamptz)',
    );
  });

  afterAll(async () => {
    await client.close();
  });

  const preparedTexts = async () =>
    (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map(
      (row) => row.statement,
    );

  it('round-trips every kind of parameter through the database', async () => {
    const at = new Date('2026-11-25T10:00:00.000Z');
    await client.query('INSERT INTO items VALUES ($1, $2, $3, $4, $5)', [
      1,
      'O\'Brien "quoted"',
      ['x', 'y "z"', 'back\\slash'],
      { nested: { list: [1, 2] } },
      at,
    ]);
    const { rows } = await client.query<Record<string, unknown>>('SELECT * FROM items WHERE id = $1', [1]);
    expect(rows).toEqual([
      {
        id: 1,
        name: 'O\'Brien "quoted"',
        tags: ['x', 'y "z"', 'back\\slash'],
        meta: { nested: { list: [1, 2] } },
        at,
      },
    ]);
    const any = await client.query('SELECT id FROM items WHERE name = ANY($1::text[]) AND $2::boolean', [
      ['nobody', 'O\'Brien "quoted"'],
      true,
    ]);
    expect(any.rows).toEqual([{ id: 1 }]);
  });

  it('prepares a statement once per text and reuses it', async () => {
    const text = 'SELECT count(*)::int AS n FROM items WHERE id > $1';
    for (let run = 0; run < 3; run++) {
      expect((await client.query(text, [0])).rows).toEqual([{ n: 1 }]);
    }
    expect((await preparedTexts()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('answers rows as arrays and keeps text for the types a caller asks', async () => {
    const result = await client.query('SELECT id, at FROM items WHERE id = $1', [1], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => value },
    });
    expect(result.rows).toEqual([[1, '2026-11-25 10:00:00+00']]);
  });

  it('keeps a statement whose execution failed after it was parsed, and reports the error with its code', async () => {
    const text = 'INSERT INTO items (id, name) VALUES ($1, $2)';
    await expect(client.query(text, [1, 'duplicate'])).rejects.toMatchObject({ code: '23505' });
    await client.query(text, [2, 'second']);
    expect((await preparedTexts()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('reports a statement that does not parse, and prepares nothing for it', async () => {
    await expect(client.query('SELEC nonsense', [])).rejects.toMatchObject({ code: '42601' });
    expect(await preparedTexts()).not.toContain('SELEC nonsense');
  });

  it('prepares a statement again when a schema change altered its result columns', async () => {
    const text = 'SELECT * FROM items WHERE id = $1';
    await client.query(text, [1]);
    await client.exec("ALTER TABLE items ADD COLUMN extra text DEFAULT 'new'");
    const { rows } = await client.query<{ extra: string }>(text, [1]);
    expect(rows[0]?.extra).toBe('new');
  });

  it('commits a transaction that resolves and rolls back one that throws, holding other statements meanwhile', async () => {
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [10, 'committed']);
    });
    let outsideRan = false;
    await expect(
      client.transaction(async (tx) => {
        await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [11, 'rolled back']);
        const outside = client.query('SELECT 1').then(() => {
          outsideRan = true;
        });
        await new Promise((resolve) => setImmediate(resolve));
        expect(outsideRan).toBe(false);
        void outside;
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const { rows } = await client.query<{ id: number }>(
      'SELECT id FROM items WHERE id >= $1 ORDER BY id',
      [10],
    );
    expect(rows).toEqual([{ id: 10 }]);
    expect(outsideRan).toBe(true);
  });
});
