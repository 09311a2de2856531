import { isPermission, PERMISSIONS, type Permission } from '../../core/auth/permissions.js';
import { ValidationError } from '../../core/errors/app-errors.js';
import { isUuid } from '../../core/ids.js';

/** What a grant, revoke or removal is about: a permission name or a department id. */
export type OverrideKey =
  | { kind: 'permission'; permission: Permission }
  | { kind: 'department'; departmentId: string };

/**
 * The body of a grant or revoke: exactly one of `permission` or `departmentId`.
 * @throws ValidationError for none or both.
 */
export function overrideKeyOfBody(body: { permission?: Permission; departmentId?: string }): OverrideKey {
  const hasPermission = body.permission !== undefined;
  const hasDepartment = body.departmentId !== undefined;
  if (hasPermission === hasDepartment) {
    throw new ValidationError([
      { field: 'body', message: 'must have exactly one of permission or departmentId' },
    ]);
  }
  return hasPermission
    ? { kind: 'permission', permission: body.permission! }
    : { kind: 'department', departmentId: body.departmentId!.toLowerCase() };
}

/**
 * The `:permission` segment of the removal routes: a permission name or a department id.
 * @throws ValidationError for anything else.
 */
export function overrideKeyOfParam(value: string): OverrideKey {
  if (isPermission(value)) return { kind: 'permission', permission: value };
  if (isUuid(value)) return { kind: 'department', departmentId: value.toLowerCase() };
  throw new ValidationError([
    {
      field: 'params.permission',
      message: `must be a department id or one of: ${PERMISSIONS.join(', ')}`,
    },
  ]);
}

/** The key as the audit entry's `changes` names it. */
export function describeOverrideKey(key: OverrideKey): { permission: string } | { departmentId: string } {
  return key.kind === 'permission' ? { permission: key.permission } : { departmentId: key.departmentId };
}
