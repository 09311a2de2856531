import { computeEffectiveAccess } from '../../core/auth/actor.js';
import { iso } from '../../core/http/schemas.js';
import { avatarUrl } from '../../core/http/user-fields.js';
import { toRoleSummary } from '../roles/role-summary.js';
import type { RoleRow, UserRow } from './users.repository.js';

/** The API's view of a user: never the password hash or the token version. */
export function toUserResponse(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    phone: user.phone,
    role: user.role,
    roleId: user.roleId,
    departmentId: user.departmentId,
    isActive: user.isActive,
    extraPermissions: user.extraPermissions,
    revokedPermissions: user.revokedPermissions,
    extraDepartmentIds: user.extraDepartmentIds,
    revokedDepartmentIds: user.revokedDepartmentIds,
    avatarUrl: avatarUrl(user),
    language: userLanguage(user.language),
    lastLoginAt: iso(user.lastLoginAt),
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  };
}

/** Role, overrides and the computed effective permissions and departments. */
export function effectiveAccessOf(user: UserRow, role: RoleRow) {
  const access = computeEffectiveAccess({ ...user, role });
  return {
    userId: user.id,
    isGlobal: access.isGlobal,
    role: toRoleSummary(role),
    overrides: {
      extraPermissions: user.extraPermissions,
      revokedPermissions: user.revokedPermissions,
      extraDepartmentIds: user.extraDepartmentIds,
      revokedDepartmentIds: user.revokedDepartmentIds,
    },
    effectivePermissions: access.permissions,
    effectiveDepartmentIds: access.departmentIds,
  };
}

/** The stored language as the API shows it: en, uk or ru (the column's check allows no other), else null. */
export function userLanguage(language: string | null): 'en' | 'uk' | 'ru' | null {
  return language === 'en' || language === 'uk' || language === 'ru' ? language : null;
}

/** E.164 digits as stored: the '+' dropped; null stays null. */
export function normalisePhone(phone: string | null | undefined): string | null {
  return phone ? phone.replace(/^\+/, '') : null;
}
