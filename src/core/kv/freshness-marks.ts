import { randomUUID } from 'node:crypto';
import type { Database, DatabaseDriver } from '../db/client.js';
import type { KeyValue } from './kv.js';

/**
 * Freshness marks: one value per key that moves whenever what the key
 * stands for changes, so a process may keep a copy in memory and use it only
 * while the mark still reads as it did before the copy was loaded. Used by
 * the actor cache (core/auth/access-stamps.ts), the intent classifier's
 * example vectors and the plugin runtime.
 *
 * The rules every user follows:
 * - a mark is a random value, never a counter: a mark that disappears
 *   (evicted, expired, Redis flushed) reads as null, which differs from
 *   every value a cache holds, and a new mark never repeats an old one;
 * - writers move the mark after their transaction commits and before they
 *   answer, so the next read on any replica reloads;
 * - readers read the mark BEFORE loading the rows, so a write that lands
 *   between the two makes the next read reload.
 */
export interface FreshnessMarks {
  /** 'memory' (one process owns the database), 'key-value' (shared store), or 'none' (no cache). */
  readonly kind: 'memory' | 'key-value' | 'none';
  /** The key's current mark; null when the shared store has none. */
  read(key: string): Promise<string | null> | string | null;
  /** Moves the key's mark: call after the change it stands for commits. */
  bump(key: string): Promise<void>;
}

/** A month without a change: a mark that expired reads as null, which reloads once; old keys go away. */
const MARK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Marks in the shared key-value store (Redis): every replica reads the same marks. */
function keyValueMarks(kv: KeyValue, prefix: string): FreshnessMarks {
  return {
    kind: 'key-value',
    read: (key) => kv.get(`${prefix}:${key}`),
    async bump(key) {
      await kv.set(`${prefix}:${key}`, randomUUID(), MARK_TTL_MS);
    },
  };
}

/** Marks in this process's memory, for a database only this process opens (embedded PGlite). */
function memoryMarks(): FreshnessMarks {
  const marks = new Map<string, string>();
  // A key never bumped still needs a value, the same for every read in this process.
  const initial = randomUUID();
  return {
    kind: 'memory',
    read: (key) => marks.get(key) ?? initial,
    async bump(key) {
      marks.set(key, randomUUID());
    },
  };
}

/** No marks: callers read the database every time, and bumps have nothing to do. */
export const NO_FRESHNESS_MARKS: FreshnessMarks = {
  kind: 'none',
  read: () => null,
  bump: async () => undefined,
};

/**
 * Memory marks belong to the database they version: two containers on one
 * embedded database (a second replica in tests) must share them, or one's
 * writes would not reach the other's cache. Keyed by database, then prefix.
 */
const bound = new WeakMap<Database, Map<string, FreshnessMarks>>();

/**
 * The marks a deployment can trust, under `prefix` (one per kind of cached
 * thing): the shared store when it is Redis; this process's memory when the
 * database is embedded (PGlite opens its folder in one process only); none
 * for PostgreSQL without Redis, where a mark in the key-value table would
 * cost the very query it saves.
 */
export function freshnessMarksFor(
  db: Database,
  driver: DatabaseDriver,
  kv: KeyValue,
  prefix: string,
): FreshnessMarks {
  if (kv.kind === 'redis') return keyValueMarks(kv, prefix);
  if (driver !== 'pglite') return NO_FRESHNESS_MARKS;
  let byPrefix = bound.get(db);
  if (!byPrefix) {
    byPrefix = new Map();
    bound.set(db, byPrefix);
  }
  let marks = byPrefix.get(prefix);
  if (!marks) {
    marks = memoryMarks();
    byPrefix.set(prefix, marks);
  }
  return marks;
}
