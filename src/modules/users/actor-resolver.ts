import { type Actor, computeEffectiveAccess } from '../../core/auth/actor.js';
import type { TokenClaims } from '../../core/auth/jwt.js';
import type { RoleRow, UserRow, UsersRepository } from './users.repository.js';

/** Builds the request's Actor from the user and role rows. */
export function toActor(user: UserRow, role: RoleRow): Actor {
  const access = computeEffectiveAccess({
    role,
    departmentId: user.departmentId,
    extraPermissions: user.extraPermissions,
    revokedPermissions: user.revokedPermissions,
    extraDepartmentIds: user.extraDepartmentIds,
    revokedDepartmentIds: user.revokedDepartmentIds,
  });
  return {
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
}

/**
 * Resolves a token to its actor, read fresh on every request so role changes,
 * overrides, deactivation and tokenVersion bumps apply at once.
 */
export function createActorResolver(users: UsersRepository) {
  return async (claims: TokenClaims): Promise<Actor | null> => {
    const found = await users.findWithRole(claims.sub);
    if (!found?.user.isActive || found.user.tokenVersion !== claims.tv) return null;
    return toActor(found.user, found.role);
  };
}
