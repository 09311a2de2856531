import { and, eq, gt, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { kvEntries } from '../db/schema/drivers.js';
import type { KeyValue } from './kv.js';

/** Every this many writes, expired rows are deleted, so short-lived keys do not pile up. */
const SWEEP_EVERY_WRITES = 1000;

const msFromNow = (ms: number): SQL => sql`now() + ${ms}::double precision * interval '1 millisecond'`;

/** A row counts only while it has not expired; an expired row reads as absent. */
const live = or(isNull(kvEntries.expiresAt), gt(kvEntries.expiresAt, sql`now()`));
const expired = sql`${kvEntries.expiresAt} is not null and ${kvEntries.expiresAt} <= now()`;

/**
 * The key-value store of embedded mode, on the `kv_entries` table. Every
 * conditional operation is a single statement, so it stays atomic on
 * PostgreSQL with several processes. Times come from the database clock.
 */
export function createDatabaseKeyValue(db: Database): KeyValue {
  let writes = 0;

  async function wrote(): Promise<void> {
    writes += 1;
    if (writes % SWEEP_EVERY_WRITES === 0)
      await db.delete(kvEntries).where(lte(kvEntries.expiresAt, sql`now()`));
  }

  const expiry = (ttlMs: number | undefined): SQL | null => (ttlMs === undefined ? null : msFromNow(ttlMs));

  return {
    kind: 'database',

    async get(key) {
      const rows = await db
        .select({ value: kvEntries.value })
        .from(kvEntries)
        .where(and(eq(kvEntries.key, key), live));
      return rows[0]?.value ?? null;
    },

    async set(key, value, ttlMs) {
      await db
        .insert(kvEntries)
        .values({ key, value, expiresAt: expiry(ttlMs) })
        .onConflictDoUpdate({ target: kvEntries.key, set: { value, expiresAt: expiry(ttlMs) } });
      await wrote();
    },

    async setIfAbsent(key, value, ttlMs) {
      // The conflict update applies only over an expired row, so a live key is left alone.
      const rows = await db
        .insert(kvEntries)
        .values({ key, value, expiresAt: msFromNow(ttlMs) })
        .onConflictDoUpdate({
          target: kvEntries.key,
          set: { value, expiresAt: msFromNow(ttlMs) },
          setWhere: expired,
        })
        .returning({ key: kvEntries.key });
      await wrote();
      return rows.length > 0;
    },

    async extendIfEquals(key, value, ttlMs) {
      const rows = await db
        .update(kvEntries)
        .set({ expiresAt: msFromNow(ttlMs) })
        .where(and(eq(kvEntries.key, key), eq(kvEntries.value, value), live))
        .returning({ key: kvEntries.key });
      return rows.length > 0;
    },

    async deleteIfEquals(key, value) {
      const rows = await db
        .delete(kvEntries)
        .where(and(eq(kvEntries.key, key), eq(kvEntries.value, value), live))
        .returning({ key: kvEntries.key });
      return rows.length > 0;
    },

    async delete(key) {
      await db.delete(kvEntries).where(eq(kvEntries.key, key));
    },

    async increment(key, ttlMs) {
      // An expired counter starts over at 1 with a fresh TTL; a live one keeps its TTL (fixed window).
      const rows = await db
        .insert(kvEntries)
        .values({ key, value: '1', expiresAt: msFromNow(ttlMs) })
        .onConflictDoUpdate({
          target: kvEntries.key,
          set: {
            value: sql`case when ${expired} then '1' else (${kvEntries.value}::bigint + 1)::text end`,
            expiresAt: sql`case when ${expired} then excluded.expires_at else ${kvEntries.expiresAt} end`,
          },
        })
        .returning({ value: kvEntries.value });
      await wrote();
      return Number(rows[0]?.value);
    },

    async ping() {
      await db.execute(sql`select 1`);
    },

    // The database handle belongs to the caller, who closes it.
    async close() {},
  };
}
