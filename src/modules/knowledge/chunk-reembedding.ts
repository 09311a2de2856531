import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../core/db/client.js';
import { vectorLiteral } from '../../core/db/vector.js';
import { type EmbeddingProvider, embedderVersion } from '../../core/llm/llm.js';
import { headingPathOf, indexedText } from './ingestion/synthetic-questions-prompt.js';

/** Chunks per provider call and UPDATE, as ingestion batches them. */
const REEMBED_BATCH = 32;

/**
 * Re-embeds stored chunks whose vector another embedder made (the stored
 * `embedder` differs from the configured provider's version, or is null),
 * from the same text as ingestion (heading path, content and synthetic questions). Walks
 * the chunks by id in batches (one provider call and one UPDATE each), at
 * most `maxRows` per pass. Idempotent and safe beside another runner or
 * ingestion: a chunk already at the current version is neither selected nor
 * overwritten, and a chunk deleted meanwhile is simply not updated.
 * @returns chunks updated, and whether rows may remain (the pass hit `maxRows`).
 * @throws LlmProviderError when the embedding provider fails (batches already stored stay).
 */
export async function reembedOutdatedChunks(
  deps: { db: Database; embeddings: EmbeddingProvider },
  options: { maxRows?: number; onBatch?: (updated: number) => void } = {},
): Promise<{ updated: number; more: boolean }> {
  const { db, embeddings } = deps;
  const version = embedderVersion(embeddings);
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const outdated = (afterId: string | null, limit: number) =>
    db.execute(sql`SELECT id, content, synthetic_questions AS questions, metadata FROM chunks
      WHERE embedder IS DISTINCT FROM ${version} ${afterId ? sql`AND id > ${afterId}` : sql``}
      ORDER BY id LIMIT ${limit}`);
  let afterId: string | null = null;
  let seen = 0;
  let updated = 0;
  while (seen < maxRows) {
    const rows: Array<{ id: string; content: string; questions: unknown; metadata: unknown }> = rowsOf(
      await outdated(afterId, Math.min(REEMBED_BATCH, maxRows - seen)),
    );
    if (rows.length === 0) return { updated, more: false };
    seen += rows.length;
    afterId = rows.at(-1)!.id;
    const vectors = await embeddings.embed(
      rows.map((row) =>
        indexedText(
          row.content,
          Array.isArray(row.questions) ? (row.questions as string[]) : null,
          headingPathOf(row.metadata),
        ),
      ),
    );
    const values = rows.map((row, i) => ({ id: row.id, embedding: vectorLiteral(vectors[i]!) }));
    const done = rowsOf<{ id: string }>(
      await db.execute(sql`UPDATE chunks c SET embedding = v.embedding::vector, embedder = ${version}
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(id uuid, embedding text)
        WHERE c.id = v.id AND c.embedder IS DISTINCT FROM ${version}
        RETURNING c.id`),
    );
    updated += done.length;
    options.onBatch?.(updated);
  }
  return { updated, more: rowsOf(await outdated(afterId, 1)).length > 0 };
}
