import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { rowsOf } from './client.js';
import { textArray, uuidArray, uuidArrayInText } from './sql-helpers.js';

const ctx = useTestApp();

const dialect = new PgDialect();
const ids = ['0b6c5f5e-3f1a-4c1e-9d1b-2f0a1c2d3e4f', '7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f'];

describe('uuid arrays', () => {
  it('sends the ids as one parameter, or writes them into the text for the plan to see', () => {
    const parameter = dialect.sqlToQuery(sql`SELECT 1 WHERE $1 = any(${uuidArray(ids)})`);
    expect(parameter.params).toEqual([`{${ids.join(',')}}`]);
    const inText = dialect.sqlToQuery(sql`SELECT 1 WHERE x = any(${uuidArrayInText(ids)})`);
    expect(inText.params).toEqual([]);
    expect(inText.sql).toBe(`SELECT 1 WHERE x = any('{${ids.join(',')}}'::uuid[])`);
  });

  it('refuses anything but uuids, so nothing else reaches the text', () => {
    expect(() => uuidArrayInText([ids[0]!, "x'}'::uuid[]; DROP TABLE users; --"])).toThrow(/not a uuid/);
    expect(() => uuidArray(['1'])).toThrow(/not a uuid/);
  });
});

describe('text arrays', () => {
  it('reach the database as the same strings, whatever they hold', async () => {
    const values = [
      'plain',
      'a "quoted" word',
      'back\\slash \\"',
      '',
      'x,y',
      'NULL',
      '{braces}',
      'line\nbreak',
    ];
    const rows = rowsOf<{ value: string }>(
      await ctx.container.db.execute(sql`SELECT unnest(${textArray(values)}) AS value`),
    );
    expect(rows.map((row) => row.value)).toEqual(values);
  });
});
