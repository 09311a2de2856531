import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { KeyValue } from '../kv/kv.js';

/**
 * Version marks of what an actor is built from: one per user (their row:
 * tokenVersion, active flag, role, overrides, name…) and one for all roles
 * together (role edits are rare; every cached actor reloads once after one).
 * A cached actor is used only while both marks still read as they did before
 * its rows were loaded; the services that change those rows move the marks
 * after their transaction commits and before they answer, so the next
 * request on any replica reloads.
 *
 * A mark is a random value, never a counter: a mark that disappears (evicted,
 * expired, Redis flushed) reads as null, which differs from every value a
 * cache holds, and a new mark never repeats an old one.
 */
export interface AccessStamps {
  /** 'memory' (one process owns the database), 'key-value' (shared store), or 'none' (no cache). */
  readonly kind: 'memory' | 'key-value' | 'none';
  /** The user's and the roles' marks as one string, read in one step. */
  read(userId: string): Promise<string> | string;
  /** Call after a change to the user's row commits (token version, activity, role, overrides, profile fields). */
  bumpUser(userId: string): Promise<void>;
  /** Call after any role's permissions, departments or slug change commits. */
  bumpRoles(): Promise<void>;
}

const ROLES_KEY = 'access-stamp:roles';
const userKey = (userId: string) => `access-stamp:user:${userId}`;
/**
 * Marks expire after a month of no change: a mark that is gone reads as null,
 * which invalidates the caches that held it once and is safe, so old users'
 * marks do not pile up.
 */
const STAMP_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Marks in the shared key-value store (Redis in distributed mode): every
 * replica reads the same marks, so a change made through one replica is seen
 * by the next request on any other.
 */
export function createKeyValueAccessStamps(kv: KeyValue): AccessStamps {
  return {
    kind: 'key-value',
    async read(userId) {
      // Both GETs go out on the one connection back to back: one round trip.
      const [user, roles] = await Promise.all([kv.get(userKey(userId)), kv.get(ROLES_KEY)]);
      return `${user ?? '-'}|${roles ?? '-'}`;
    },
    async bumpUser(userId) {
      await kv.set(userKey(userId), randomUUID(), STAMP_TTL_MS);
    },
    async bumpRoles() {
      await kv.set(ROLES_KEY, randomUUID(), STAMP_TTL_MS);
    },
  };
}

/**
 * Marks in this process's memory, for a database only this process can open
 * (embedded PGlite): every writer is in this process, so a bump is seen by
 * the very next request, without any I/O.
 */
export function createMemoryAccessStamps(): AccessStamps {
  const users = new Map<string, string>();
  let roles = randomUUID();
  return {
    kind: 'memory',
    read: (userId) => `${users.get(userId) ?? '-'}|${roles}`,
    async bumpUser(userId) {
      users.set(userId, randomUUID());
    },
    async bumpRoles() {
      roles = randomUUID();
    },
  };
}

/** No shared marks: actors are read from the database on every request, and bumps have nothing to do. */
export const NO_ACCESS_STAMPS: AccessStamps = {
  kind: 'none',
  read: () => '',
  bumpUser: async () => undefined,
  bumpRoles: async () => undefined,
};

/**
 * The marks belong to the database they version, so every service and the
 * resolver that work on one database handle reach the same marks through
 * the `db` they already hold (two containers on one embedded database share
 * them, as they must). The container binds them once at start.
 */
const bound = new WeakMap<Database, AccessStamps>();

/** Binds the marks of `db`; a database already bound keeps its marks (a second container on the same handle). */
export function bindAccessStamps(db: Database, create: () => AccessStamps): AccessStamps {
  let stamps = bound.get(db);
  if (!stamps) {
    stamps = create();
    bound.set(db, stamps);
  }
  return stamps;
}

/** The marks bound to `db`; none (no caching anywhere) when nothing was bound. */
export function accessStampsOf(db: Database): AccessStamps {
  return bound.get(db) ?? NO_ACCESS_STAMPS;
}

/**
 * The marks a deployment can trust: the shared store when it is Redis; this
 * process's memory when the database is embedded (PGlite opens its folder in
 * one process only); none for PostgreSQL without Redis, where a mark in the
 * key-value table would cost the very query it saves.
 */
export function accessStampsFor(driver: 'pglite' | 'postgres', kv: KeyValue): AccessStamps {
  if (kv.kind === 'redis') return createKeyValueAccessStamps(kv);
  if (driver === 'pglite') return createMemoryAccessStamps();
  return NO_ACCESS_STAMPS;
}
