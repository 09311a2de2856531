import { describe, expect, it } from 'vitest';
import { computeEffectiveAccess } from './actor.js';

const base = {
  role: {
    allDepartments: false,
    departmentIds: ['role-dept'],
    permissions: ['canApprove', 'canViewKnowledge'],
  },
  departmentId: 'home',
  extraPermissions: [] as string[],
  revokedPermissions: [] as string[],
  extraDepartmentIds: [] as string[],
  revokedDepartmentIds: [] as string[],
};

describe('computeEffectiveAccess (access rules 1-3)', () => {
  it('adds extras to the role grants and the primary department', () => {
    const access = computeEffectiveAccess({
      ...base,
      extraPermissions: ['canViewAudit'],
      extraDepartmentIds: ['x'],
    });
    expect(access.permissions.sort()).toEqual(['canApprove', 'canViewAudit', 'canViewKnowledge']);
    expect(access.departmentIds.sort()).toEqual(['home', 'role-dept', 'x']);
    expect(access.isGlobal).toBe(false);
  });

  it('lets a revoke win over the role grant and over an extra grant', () => {
    const access = computeEffectiveAccess({
      ...base,
      extraPermissions: ['canApprove', 'canViewAudit'],
      revokedPermissions: ['canApprove', 'canViewAudit'],
      extraDepartmentIds: ['x'],
      revokedDepartmentIds: ['x', 'role-dept', 'home'],
    });
    expect(access.permissions).toEqual(['canViewKnowledge']);
    expect(access.departmentIds).toEqual([]);
  });

  it('ignores names that are not permissions', () => {
    const access = computeEffectiveAccess({ ...base, extraPermissions: ['canEverything'] });
    expect(access.permissions).not.toContain('canEverything');
  });

  it('marks holders of an allDepartments role global', () => {
    expect(computeEffectiveAccess({ ...base, role: { ...base.role, allDepartments: true } }).isGlobal).toBe(
      true,
    );
  });
});
