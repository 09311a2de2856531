import { getTableColumns, type SQL, sql, type Table } from 'drizzle-orm';
import { isUuid } from '../ids.js';

/** A PostgreSQL uuid[] literal; ids are checked, so nothing else can reach the SQL. */
export function uuidArray(ids: readonly string[]): SQL {
  for (const id of ids) if (!isUuid(id)) throw new Error(`not a uuid: ${id}`);
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/**
 * A text[] sent as one parameter (an array literal, each element quoted),
 * for statements that take a column of values per row: `unnest` of it is
 * estimated at a few rows in a generic plan, where a JSON record set is
 * estimated at a hundred (and then joined by scanning the whole table).
 */
export function textArray(values: readonly string[]): SQL {
  const quoted = values.map((value) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
  return sql`${`{${quoted.join(',')}}`}::text[]`;
}

/**
 * A uuid[] written into the statement's text rather than sent as a
 * parameter, for ids whose values the plan must know. Statements are
 * prepared once per text (pg-prepared.ts) and PostgreSQL soon runs them on a
 * generic plan, planned without the parameters' values: a filter on a few
 * rare values of a column with few distinct ones (the approver roles among
 * every employee's) is then planned as a scan of the whole table. Written
 * in the text, the values are planned with the column's statistics. Only for
 * small sets that rarely change (each set is a statement of its own); the
 * ids are checked, so nothing else can reach the SQL.
 */
export function uuidArrayInText(ids: readonly string[]): SQL {
  for (const id of ids) if (!isUuid(id)) throw new Error(`not a uuid: ${id}`);
  return sql.raw(`'{${ids.join(',')}}'::uuid[]`);
}

/**
 * A row of `table` from its JSON form (`row_to_json`, `json_agg`): the
 * columns' SQL names become the table's field names and each value is mapped
 * as Drizzle maps what the driver returns (timestamps to Date).
 */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
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
