import { type AccessStamps, NO_ACCESS_STAMPS } from '../../core/auth/access-stamps.js';
import { type Actor, computeEffectiveAccess } from '../../core/auth/actor.js';
import type { TokenClaims } from '../../core/auth/jwt.js';
import { rememberRecent } from '../../core/memo.js';
import type { RoleRow, UserRow, UsersRepository } from './users.repository.js';

/** The rows each resolved actor was built from, so a service can use them instead of reading them again. */
const sourceRows = new WeakMap<Actor, { user: UserRow; role: RoleRow }>();

/**
 * The user and role rows the actor was built from when it came from the
 * token resolver (read at most moments ago, and checked current for this
 * request); undefined for other actors (system, tests), whose callers read.
 */
export function actorRows(actor: Actor): { user: UserRow; role: RoleRow } | undefined {
  return sourceRows.get(actor);
}

/** Builds the request's Actor from the user and role rows. */
export function toActor(user: UserRow, role: RoleRow): Actor {
  const access = computeEffectiveAccess({ ...user, role });
  const actor: Actor = {
    kind: 'user',
    userId: user.id,
    email: user.email,
    name: user.name,
    roleId: role.id,
    roleSlug: role.slug,
    departmentId: user.departmentId,
    isGlobal: access.isGlobal,
    permissions: new Set(access.permissions),
    departmentIds: new Set(access.departmentIds),
    tokenVersion: user.tokenVersion,
  };
  sourceRows.set(actor, { user, role });
  return actor;
}

/** At most this many actors are kept per process; the oldest entry goes first. */
const MAX_CACHED_ACTORS = 10_000;

interface CachedActor {
  /** The access marks as read before the rows were loaded. */
  stamp: string;
  actor: Actor;
  user: UserRow;
}

/**
 * Resolves a token to its actor so that role changes, overrides,
 * deactivation and tokenVersion bumps apply to the very next request.
 *
 * With access marks (`stamps.kind` not 'none') the actor is cached per user
 * in this process and used only while the marks read exactly as they did
 * before its rows were loaded: one key-value read (or none, for the embedded
 * database) instead of a query. The marks are read before the rows, so a
 * change that commits while the rows load leaves a mark that differs next
 * time. Without marks, the user and role are read on every request (one
 * prepared query). docs/access.md, "Actor cache and revocation", has the
 * reasoning and the measurements.
 */
export function createActorResolver(users: UsersRepository, stamps: AccessStamps = NO_ACCESS_STAMPS) {
  async function load(claims: TokenClaims): Promise<Actor | null> {
    const found = await users.findWithRole(claims.sub);
    if (!found?.user.isActive || found.user.tokenVersion !== claims.tv) return null;
    return toActor(found.user, found.role);
  }
  if (stamps.kind === 'none') return load;

  const cache = new Map<string, CachedActor>();
  return async (claims: TokenClaims): Promise<Actor | null> => {
    const stamp = await stamps.read(claims.sub);
    const cached = cache.get(claims.sub);
    if (cached && cached.stamp === stamp && cached.user.tokenVersion === claims.tv) {
      return cached.user.isActive ? cached.actor : null;
    }
    const found = await users.findWithRole(claims.sub);
    if (!found) {
      cache.delete(claims.sub);
      return null;
    }
    const actor = toActor(found.user, found.role);
    rememberRecent(cache, claims.sub, { stamp, actor, user: found.user }, MAX_CACHED_ACTORS);
    if (!found.user.isActive || found.user.tokenVersion !== claims.tv) return null;
    return actor;
  };
}
