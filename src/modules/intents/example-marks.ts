import type { Database, DatabaseDriver } from '../../core/db/client.js';
import { type FreshnessMarks, freshnessMarksFor, NO_FRESHNESS_MARKS } from '../../core/kv/freshness-marks.js';
import type { KeyValue } from '../../core/kv/kv.js';

/**
 * Version marks of a namespace's intent examples (keyed by namespace id), so
 * that the classifier may keep a namespace's example vectors in memory and
 * still see a new or deleted example at the very next classification, in any
 * process. The rules are those of core/kv/freshness-marks.ts: the intents
 * service moves a namespace's mark after every committed change to its
 * examples; the classifier reads it before loading the rows.
 */
export type ExampleMarks = FreshnessMarks;

/** No marks: every classification searches the database. */
export const NO_EXAMPLE_MARKS: ExampleMarks = NO_FRESHNESS_MARKS;

/** The example marks a deployment can trust (Redis, the embedded database's memory, or none). */
export function exampleMarksFor(db: Database, driver: DatabaseDriver, kv: KeyValue): ExampleMarks {
  return freshnessMarksFor(db, driver, kv, 'intent-examples-mark');
}
