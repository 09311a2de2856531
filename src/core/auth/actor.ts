import type { Permission } from './permissions.js';
import { isPermission } from './permissions.js';

/** Who is acting: the authenticated user with effective access resolved once per request. */
export interface Actor {
  readonly kind: 'user' | 'system';
  readonly userId: string;
  readonly email: string;
  readonly name: string;
  readonly roleId: string;
  readonly roleSlug: string;
  readonly departmentId: string;
  /** Global: the role has `allDepartments`; scope checks pass for every department. */
  readonly isGlobal: boolean;
  readonly permissions: ReadonlySet<Permission>;
  /** Effective departments (ignored for a global actor). */
  readonly departmentIds: ReadonlySet<string>;
  readonly tokenVersion: number;
}

export interface AccessInputs {
  role: { allDepartments: boolean; departmentIds: readonly string[]; permissions: readonly string[] };
  departmentId: string;
  extraPermissions: readonly string[];
  revokedPermissions: readonly string[];
  extraDepartmentIds: readonly string[];
  revokedDepartmentIds: readonly string[];
}

export interface EffectiveAccess {
  isGlobal: boolean;
  permissions: Permission[];
  departmentIds: string[];
}

/**
 * The access rules 1-3 (docs/access.md): role grants plus extras, then revokes, which win.
 * For a global user `departmentIds` still lists the computed set (for display);
 * scope checks treat global users as seeing everything.
 */
export function computeEffectiveAccess(input: AccessInputs): EffectiveAccess {
  const revokedPermissions = new Set(input.revokedPermissions);
  const permissions = new Set<Permission>();
  for (const p of [...input.role.permissions, ...input.extraPermissions]) {
    if (isPermission(p) && !revokedPermissions.has(p)) permissions.add(p);
  }
  const revokedDepartments = new Set(input.revokedDepartmentIds);
  const departmentIds = new Set<string>();
  for (const d of [...input.role.departmentIds, input.departmentId, ...input.extraDepartmentIds]) {
    if (!revokedDepartments.has(d)) departmentIds.add(d);
  }
  return {
    isGlobal: input.role.allDepartments,
    permissions: [...permissions],
    departmentIds: [...departmentIds],
  };
}

/** The actor workers and channels use: every permission, every department. */
export function systemActor(permissions: readonly Permission[]): Actor {
  return {
    kind: 'system',
    userId: '00000000-0000-0000-0000-000000000000',
    email: 'system@localhost',
    name: 'System',
    roleId: '',
    roleSlug: 'system',
    departmentId: '',
    isGlobal: true,
    permissions: new Set(permissions),
    departmentIds: new Set(),
    tokenVersion: 0,
  };
}

export function hasPermission(actor: Actor, permission: Permission): boolean {
  return actor.permissions.has(permission);
}
