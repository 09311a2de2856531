import type { Database, DatabaseDriver } from '../db/client.js';
import { type FreshnessMarks, freshnessMarksFor } from '../kv/freshness-marks.js';
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
 * The marks follow the rules of core/kv/freshness-marks.ts.
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

const ROLES = 'roles';
const userKey = (userId: string) => `user:${userId}`;
const joined = (user: string | null, roles: string | null) => `${user ?? '-'}|${roles ?? '-'}`;

/**
 * Access stamps over freshness marks (core/kv/freshness-marks.ts, prefix
 * `access-stamp`): a user's stamp is their own mark and the roles' mark read
 * together; with Redis both GETs leave back to back on one connection, one
 * round trip.
 */
function accessStampsOver(marks: FreshnessMarks): AccessStamps {
  if (marks.kind === 'none') return NO_ACCESS_STAMPS;
  return {
    kind: marks.kind,
    read(userId) {
      const user = marks.read(userKey(userId));
      const roles = marks.read(ROLES);
      if (user instanceof Promise || roles instanceof Promise) {
        return Promise.all([user, roles]).then(([u, r]) => joined(u, r));
      }
      return joined(user, roles);
    },
    bumpUser: (userId) => marks.bump(userKey(userId)),
    bumpRoles: () => marks.bump(ROLES),
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
 * The marks a deployment can trust (see `freshnessMarksFor`): Redis when
 * there is one, this process's memory for the embedded database, none for
 * PostgreSQL without Redis.
 */
export function accessStampsFor(db: Database, driver: DatabaseDriver, kv: KeyValue): AccessStamps {
  return accessStampsOver(freshnessMarksFor(db, driver, kv, 'access-stamp'));
}
