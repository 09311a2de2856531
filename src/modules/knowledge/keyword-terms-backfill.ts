import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../core/db/client.js';
import { keywordIndexEntry } from '../rag/text-analysis.js';
import { headingPathOf, indexedText } from './ingestion/synthetic-questions-prompt.js';

/** Chunks analysed per statement by {@link backfillKeywordTerms}. */
const BACKFILL_BATCH = 200;

/**
 * Fills the keyword terms of stored chunks that have none (written before
 * the BM25 leg existed: a migration cannot run the stemmers). Analyses the
 * same text as ingestion (heading path, content and synthetic questions) in batches, each
 * batch one UPDATE in its own transaction, so the BM25 statistics follow
 * through the chunks' update trigger. Safe to run again and alongside
 * ingestion: it only touches chunks whose terms are still null.
 * @returns the number of chunks indexed.
 */
export async function backfillKeywordTerms(db: Database): Promise<number> {
  let done = 0;
  for (;;) {
    const batch = rowsOf<{ id: string; content: string; questions: string[] | null; metadata: unknown }>(
      await db.execute(sql`SELECT id, content, synthetic_questions AS questions, metadata FROM chunks
        WHERE terms IS NULL ORDER BY id LIMIT ${BACKFILL_BATCH}`),
    );
    if (batch.length === 0) return done;
    const entries = batch.map((row) => ({
      id: row.id,
      ...keywordIndexEntry(
        indexedText(
          row.content,
          Array.isArray(row.questions) ? row.questions : null,
          headingPathOf(row.metadata),
        ),
      ),
    }));
    await db.execute(sql`UPDATE chunks c SET terms = v.terms::tsvector, term_count = v."termCount"
      FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS v(id uuid, terms text, "termCount" int)
      WHERE c.id = v.id AND c.terms IS NULL`);
    done += batch.length;
  }
}
