import { sql } from 'drizzle-orm';
import { type DbExecutor, rowsOf } from './client.js';

/** Every embedding column, with the HNSW index built on it. */
const EMBEDDING_COLUMNS = [
  { table: 'chunks', index: 'chunks_embedding_idx' },
  { table: 'intent_examples', index: 'intent_examples_embedding_idx' },
] as const;

/**
 * Brings the embedding columns to EMBEDDING_DIMENSIONS. Migrations create
 * them at 1536; a provider with another dimension needs the columns re-typed,
 * which is only safe while they hold no vectors. With vectors stored, start-up
 * stops and says what to do instead of corrupting the index.
 */
export async function alignEmbeddingDimensions(db: DbExecutor, dimensions: number): Promise<void> {
  for (const { table, index } of EMBEDDING_COLUMNS) {
    const [column] = rowsOf<{ type: string }>(
      await db.execute(sql`
        SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = ${table}::regclass AND attname = 'embedding'`),
    );
    if (column?.type === `vector(${dimensions})`) continue;
    const [stored] = rowsOf<{ present: boolean }>(
      await db.execute(
        sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(table)} WHERE embedding IS NOT NULL) AS present`,
      ),
    );
    if (stored?.present) {
      throw new Error(
        `EMBEDDING_DIMENSIONS is ${dimensions} but ${table}.embedding holds ${column?.type} vectors. ` +
          'Set EMBEDDING_DIMENSIONS back, or clear the stored embeddings (reprocess documents after) and start again.',
      );
    }
    await db.execute(sql`DROP INDEX IF EXISTS ${sql.identifier(index)}`);
    await db.execute(
      sql`ALTER TABLE ${sql.identifier(table)} ALTER COLUMN embedding TYPE ${sql.raw(`vector(${dimensions})`)}`,
    );
    await db.execute(
      sql`CREATE INDEX ${sql.identifier(index)} ON ${sql.identifier(table)} USING hnsw (embedding vector_cosine_ops)`,
    );
  }
}
