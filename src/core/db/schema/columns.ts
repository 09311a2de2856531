import { sql } from 'drizzle-orm';
import { customType, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Dimension of every embedding column as migrated. EMBEDDING_DIMENSIONS may
 * differ: the start-up check then re-types the (empty) columns or refuses to
 * start, see core/db/embedding-dimensions.ts.
 */
export const MIGRATED_EMBEDDING_DIMENSIONS = 1536;

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
export const tsz = (name: string) => timestamp(name, { withTimezone: true });
export const textArray = (name: string) => text(name).array().notNull().default(sql`'{}'::text[]`);

/** PostgreSQL full-text vector; written by a generated column, read only by SQL. */
export const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});
