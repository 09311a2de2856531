import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database.js';
import { type DatabaseHandle, rowsOf } from './client.js';
import { alignEmbeddingDimensions } from './embedding-dimensions.js';

const handles: DatabaseHandle[] = [];
afterAll(async () => {
  for (const handle of handles) await handle.close();
});

const columnType = async (handle: DatabaseHandle, table: string) =>
  rowsOf<{ type: string }>(
    await handle.db.execute(sql`
      SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = ${table}::regclass AND attname = 'embedding'`),
  )[0]?.type;

describe('alignEmbeddingDimensions', () => {
  it('re-types empty embedding columns and keeps their HNSW indexes', async () => {
    const handle = await createTestDatabase();
    handles.push(handle);
    await alignEmbeddingDimensions(handle.db, 8);
    expect(await columnType(handle, 'chunks')).toBe('vector(8)');
    expect(await columnType(handle, 'intent_examples')).toBe('vector(8)');
    const indexes = rowsOf<{ indexname: string }>(
      await handle.db.execute(sql`SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%hnsw%'`),
    ).map((r) => r.indexname);
    expect(indexes.sort()).toEqual(['chunks_embedding_idx', 'intent_examples_embedding_idx']);
    // Idempotent: a second start with the same setting changes nothing.
    await alignEmbeddingDimensions(handle.db, 8);
    expect(await columnType(handle, 'chunks')).toBe('vector(8)');
  });

  it('refuses to start when vectors of another dimension are stored', async () => {
    const handle = await createTestDatabase();
    handles.push(handle);
    await handle.db.execute(sql`
      WITH d AS (INSERT INTO departments (name, slug) VALUES ('Dims', 'dims') RETURNING id),
           n AS (INSERT INTO namespaces (name, department_id) SELECT 'ns', id FROM d RETURNING id)
      INSERT INTO intent_examples (namespace_id, intent_name, example_text, embedding)
      SELECT id, 'greet', 'hello', array_fill(0.1::real, ARRAY[1536])::vector FROM n`);
    await expect(alignEmbeddingDimensions(handle.db, 768)).rejects.toThrow(/EMBEDDING_DIMENSIONS is 768/);
    expect(await columnType(handle, 'intent_examples')).toBe('vector(1536)');
  });
});
