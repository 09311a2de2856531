import { SYSTEM_ROLES } from '../../core/auth/permissions.js';
import type { RolesRepository } from './roles.repository.js';

/**
 * Seeds the system roles at start when missing. Existing rows are left alone,
 * so permissions an administrator changed survive restarts.
 */
export async function seedSystemRoles(roles: RolesRepository): Promise<void> {
  for (const role of SYSTEM_ROLES) {
    await roles.insertSystemRoleIfMissing({
      slug: role.slug,
      name: role.name,
      description: role.description,
      allDepartments: role.allDepartments,
      permissions: [...role.permissions],
      departmentIds: [],
    });
  }
}
