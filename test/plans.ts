import { type SQLWrapper, sql } from 'drizzle-orm';
import { type DbExecutor, rowsOf } from '../src/core/db/client.js';

/**
 * The plan the database picks for `statement` (EXPLAIN, not run), as one
 * text: for tests that a query reads through the index meant for it.
 */
export async function explainPlan(db: DbExecutor, statement: SQLWrapper): Promise<string> {
  const rows = rowsOf<Record<string, string>>(await db.execute(sql`EXPLAIN ${statement}`));
  return rows.map((row) => Object.values(row)[0]).join('\n');
}
