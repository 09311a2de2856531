import type { Actor } from '../../core/auth/actor.js';
import { canAccessDepartment } from '../../core/auth/department-scope.js';
import type { Permission } from '../../core/auth/permissions.js';
import { ForbiddenError } from '../../core/errors/app-errors.js';

/** Access a role, a grant or an assignment would hand out. */
export interface ConferredAccess {
  allDepartments?: boolean;
  departmentIds?: readonly string[];
  permissions?: readonly string[];
}

/**
 * Nobody hands out more than they hold (docs/access.md): every permission
 * must be one of the caller's effective permissions, access to every
 * department needs a global caller, and each department must be one the
 * caller reaches.
 * @throws ForbiddenError naming what the caller lacks.
 */
export function assertCanConfer(actor: Actor, access: ConferredAccess): void {
  const missing = (access.permissions ?? []).filter((p) => !actor.permissions.has(p as Permission));
  if (missing.length > 0) {
    throw new ForbiddenError(`You cannot hand out permissions you do not hold: ${missing.join(', ')}`);
  }
  if (access.allDepartments && !actor.isGlobal) {
    throw new ForbiddenError(
      'Only a user with access to every department can hand out access to every department',
    );
  }
  const outside = (access.departmentIds ?? []).filter((d) => !canAccessDepartment(actor, d));
  if (outside.length > 0) {
    throw new ForbiddenError(`Departments outside your departments: ${outside.join(', ')}`);
  }
}

/**
 * Managing another user (role, department, active state, overrides) is
 * limited to users whose role the caller could have assigned, so a manager
 * cannot act on someone more powerful than themselves.
 * @throws ForbiddenError otherwise.
 */
export function assertCanManage(actor: Actor, targetRole: ConferredAccess): void {
  try {
    assertCanConfer(actor, targetRole);
  } catch {
    throw new ForbiddenError('You cannot manage a user whose role holds more access than you');
  }
}
