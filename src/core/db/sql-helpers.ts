import { type SQL, sql } from 'drizzle-orm';
import { isUuid } from '../ids.js';

/** A PostgreSQL uuid[] literal; ids are checked, so nothing else can reach the SQL. */
export function uuidArray(ids: readonly string[]): SQL {
  for (const id of ids) if (!isUuid(id)) throw new Error(`not a uuid: ${id}`);
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/** A LIKE pattern matching `term` anywhere, with LIKE's wildcards in the term taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function hasSqlState(error: unknown, code: string): boolean {
  // pg and PGlite both set `code`; drizzle wraps the driver's error in `cause`.
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.code === code) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/** PostgreSQL's unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, '23505');
}

/** PostgreSQL's foreign_key_violation. */
export function isForeignKeyViolation(error: unknown): boolean {
  return hasSqlState(error, '23503');
}
