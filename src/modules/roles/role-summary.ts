import { Type } from 'typebox';
import { Uuid } from '../../core/http/schemas.js';
import type { RoleRow } from './roles.repository.js';

/** A role as embedded in other responses (`GET /me`, effective access). */
export const RoleSummary = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  allDepartments: Type.Boolean(),
  departmentIds: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
  isSystem: Type.Boolean(),
});

export function toRoleSummary(role: RoleRow) {
  return {
    id: role.id,
    name: role.name,
    slug: role.slug,
    allDepartments: role.allDepartments,
    departmentIds: role.departmentIds,
    permissions: role.permissions,
    isSystem: role.isSystem,
  };
}
