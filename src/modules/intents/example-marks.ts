import { randomUUID } from 'node:crypto';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';

/**
 * Version marks of a namespace's intent examples, so that the classifier
 * may keep a namespace's example vectors in memory and still see a new or
 * deleted example at the very next classification, in any process.
 *
 * The same rules as the actor cache's access marks (docs/access.md): a mark
 * is a random value, never a counter, so a mark that disappears (evicted,
 * expired, Redis flushed) reads as null and differs from every value a cache
 * holds; writers move it after their transaction commits; a reader reads the
 * mark BEFORE loading the rows, so a write that lands between the two makes
 * the next read reload.
 */
export interface ExampleMarks {
  /** 'memory' (one process owns the database), 'key-value' (shared store), or 'none' (no cache). */
  readonly kind: 'memory' | 'key-value' | 'none';
  /** The namespace's current mark; null when it has none (the cache then reloads once and keeps null). */
  read(namespaceId: string): Promise<string | null> | string | null;
  /** Call after a change to the namespace's examples commits. */
  bump(namespaceId: string): Promise<void>;
}

const markKey = (namespaceId: string) => `intent-examples-mark:${namespaceId}`;
/** A month without a change: a mark that expired reads as null, which reloads once; marks of old namespaces go away. */
const MARK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Marks in the shared key-value store (Redis): one GET per classification instead of a vector search. */
export function createKeyValueExampleMarks(kv: KeyValue): ExampleMarks {
  return {
    kind: 'key-value',
    read: (namespaceId) => kv.get(markKey(namespaceId)),
    async bump(namespaceId) {
      await kv.set(markKey(namespaceId), randomUUID(), MARK_TTL_MS);
    },
  };
}

/** Marks in this process's memory, for a database only this process opens (embedded PGlite). */
export function createMemoryExampleMarks(): ExampleMarks {
  const marks = new Map<string, string>();
  // A namespace never bumped still needs a value that differs from "never loaded".
  const initial = randomUUID();
  return {
    kind: 'memory',
    read: (namespaceId) => marks.get(namespaceId) ?? initial,
    async bump(namespaceId) {
      marks.set(namespaceId, randomUUID());
    },
  };
}

/** No marks: every classification searches the database, and bumps have nothing to do. */
export const NO_EXAMPLE_MARKS: ExampleMarks = {
  kind: 'none',
  read: () => null,
  bump: async () => undefined,
};

/**
 * The marks a deployment can trust, as for the access marks: Redis when
 * there is one; this process's memory for the embedded database (one process
 * opens it); none for PostgreSQL without Redis, where a mark in the database
 * key-value table would cost a query per classification anyway.
 */
export function exampleMarksFor(driver: 'pglite' | 'postgres', kv: KeyValue): ExampleMarks {
  if (kv.kind === 'redis') return createKeyValueExampleMarks(kv);
  if (driver === 'pglite') return createMemoryExampleMarks();
  return NO_EXAMPLE_MARKS;
}

/**
 * The marks belong to the database they version: two containers on one
 * embedded database (a second replica in tests) must share them, or one's
 * writes would not reach the other's cache.
 */
const bound = new WeakMap<Database, ExampleMarks>();

/** The marks of `db`, created by `create` the first time. */
export function bindExampleMarks(db: Database, create: () => ExampleMarks): ExampleMarks {
  let marks = bound.get(db);
  if (!marks) {
    marks = create();
    bound.set(db, marks);
  }
  return marks;
}
