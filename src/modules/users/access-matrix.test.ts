import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  createDepartment,
  createRole,
  createUser,
  type TestUser,
  type UserOverrides,
} from '../../../test/factories.js';
import type { DepartmentRow } from '../departments/departments.repository.js';

/**
 * The authorization matrix of issue 3: every endpoint of departments, users,
 * overrides, permissions, roles, employee profiles and audit, for six callers,
 * each against a target in their own department and one in another, with the
 * exact status. Every cell gets fresh departments, caller and target, so no
 * cell depends on another.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

const CALLERS = {
  admin: { role: 'admin' },
  deptHead: { role: 'dept_head' },
  approver: { role: 'approver' },
  employee: { role: 'employee' },
  employeeWithViewAllUsers: { role: 'employee', extraPermissions: ['canViewAllUsers'] },
  deptHeadWithoutAudit: { role: 'dept_head', revokedPermissions: ['canViewAudit'] },
} satisfies Record<string, UserOverrides>;
type Caller = keyof typeof CALLERS;
type Target = 'own' | 'other';
/** [status with a target in the caller's department, status with a target in another department]. */
type Expected = Record<Caller, readonly [number, number]>;

interface Cell {
  caller: TestUser;
  /** The target's department: the caller's own, or another one. */
  department: DepartmentRow;
}
interface Endpoint {
  name: string;
  request(
    cell: Cell,
  ): Promise<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }>;
  expected: Expected;
}

const same = (own: number, other: number = own): Expected => ({
  admin: [own, other],
  deptHead: [own, other],
  approver: [own, other],
  employee: [own, other],
  employeeWithViewAllUsers: [own, other],
  deptHeadWithoutAudit: [own, other],
});
/** Only admin passes; everyone else lacks the route's permission. */
const adminOnly = (status: number): Expected => ({ ...same(403), admin: [status, status] });

const targetUser = async (
  cell: Cell,
  overrides: { extraPermissions?: string[]; revokedPermissions?: string[] } = {},
) => (await createUser(ctx.container, { departmentId: cell.department.id, ...overrides })).user;
const targetRole = (cell: Cell) => createRole(ctx.container, { departmentIds: [cell.department.id] });

const READ_USER: Expected = {
  admin: [200, 200],
  deptHead: [200, 404],
  approver: [403, 403],
  employee: [403, 403],
  employeeWithViewAllUsers: [200, 404],
  deptHeadWithoutAudit: [200, 404],
};
const VIEW_ROLES: Expected = {
  ...same(403),
  admin: [200, 200],
  deptHead: [200, 200],
  deptHeadWithoutAudit: [200, 200],
};

const ENDPOINTS: Endpoint[] = [
  // Departments
  {
    name: 'GET /departments',
    request: async ({ department }) => ({
      method: 'GET',
      url: `/departments?search=${encodeURIComponent(department.name)}`,
    }),
    expected: same(200),
  },
  {
    name: 'GET /departments/:id',
    request: async ({ department }) => ({ method: 'GET', url: `/departments/${department.id}` }),
    expected: { ...same(200, 404), admin: [200, 200] },
  },
  {
    name: 'POST /departments',
    request: async ({ department }) => ({
      method: 'POST',
      url: '/departments',
      payload: { name: `${department.name} B` },
    }),
    expected: adminOnly(201),
  },
  {
    name: 'PATCH /departments/:id',
    request: async ({ department }) => ({
      method: 'PATCH',
      url: `/departments/${department.id}`,
      payload: { description: 'x' },
    }),
    expected: adminOnly(200),
  },
  {
    name: 'POST /departments/:id/archive',
    request: async ({ department }) => ({ method: 'POST', url: `/departments/${department.id}/archive` }),
    expected: adminOnly(200),
  },
  // Users
  {
    name: 'GET /users',
    request: async ({ department }) => ({ method: 'GET', url: `/users?departmentId=${department.id}` }),
    expected: {
      admin: [200, 200],
      deptHead: [200, 403],
      approver: [403, 403],
      employee: [403, 403],
      employeeWithViewAllUsers: [200, 403],
      deptHeadWithoutAudit: [200, 403],
    },
  },
  {
    name: 'POST /users',
    request: async ({ department }) => ({
      method: 'POST',
      url: '/users',
      payload: {
        email: `matrix-${department.slug}@example.test`,
        password: 'matrix-pass-1',
        name: 'Matrix',
        departmentId: department.id,
      },
    }),
    expected: adminOnly(201),
  },
  {
    name: 'GET /users/:id',
    request: async (cell) => ({ method: 'GET', url: `/users/${(await targetUser(cell)).id}` }),
    expected: READ_USER,
  },
  {
    name: 'PATCH /users/:id',
    request: async (cell) => ({
      method: 'PATCH',
      url: `/users/${(await targetUser(cell)).id}`,
      payload: { name: 'Y' },
    }),
    expected: adminOnly(200),
  },
  {
    name: 'DELETE /users/:id',
    request: async (cell) => ({ method: 'DELETE', url: `/users/${(await targetUser(cell)).id}` }),
    expected: adminOnly(200),
  },
  {
    name: 'GET /users/:id/effective-access',
    request: async (cell) => ({
      method: 'GET',
      url: `/users/${(await targetUser(cell)).id}/effective-access`,
    }),
    expected: READ_USER,
  },
  {
    name: 'GET /users/:id/audit',
    request: async (cell) => ({ method: 'GET', url: `/users/${(await targetUser(cell)).id}/audit` }),
    expected: { ...same(403), admin: [200, 200], deptHead: [200, 404] },
  },
  {
    name: 'POST /users/:id/permissions/grant',
    request: async (cell) => ({
      method: 'POST',
      url: `/users/${(await targetUser(cell)).id}/permissions/grant`,
      payload: { permission: 'canViewKnowledge' },
    }),
    expected: adminOnly(200),
  },
  {
    name: 'POST /users/:id/permissions/revoke',
    request: async (cell) => ({
      method: 'POST',
      url: `/users/${(await targetUser(cell)).id}/permissions/revoke`,
      payload: { departmentId: cell.department.id },
    }),
    expected: adminOnly(200),
  },
  {
    name: 'DELETE /users/:id/permissions/grant/:permission',
    request: async (cell) => ({
      method: 'DELETE',
      url: `/users/${(await targetUser(cell, { extraPermissions: ['canApprove'] })).id}/permissions/grant/canApprove`,
    }),
    expected: adminOnly(200),
  },
  {
    name: 'DELETE /users/:id/permissions/revoke/:permission',
    request: async (cell) => ({
      method: 'DELETE',
      url: `/users/${(await targetUser(cell, { revokedPermissions: ['canApprove'] })).id}/permissions/revoke/canApprove`,
    }),
    expected: adminOnly(200),
  },
  {
    name: 'GET /permissions',
    request: async () => ({ method: 'GET', url: '/permissions' }),
    expected: same(200),
  },
  // Roles (not department-scoped: the target role covers the target department)
  {
    name: 'GET /roles',
    request: async () => ({ method: 'GET', url: '/roles?includeSystem=true' }),
    expected: VIEW_ROLES,
  },
  {
    name: 'POST /roles',
    request: async ({ department }) => ({
      method: 'POST',
      url: '/roles',
      payload: { name: `Role for ${department.slug}`, departmentIds: [department.id] },
    }),
    expected: adminOnly(201),
  },
  {
    name: 'GET /roles/:id',
    request: async (cell) => ({ method: 'GET', url: `/roles/${(await targetRole(cell)).id}` }),
    expected: VIEW_ROLES,
  },
  {
    name: 'PATCH /roles/:id',
    request: async (cell) => ({
      method: 'PATCH',
      url: `/roles/${(await targetRole(cell)).id}`,
      payload: { name: 'Z' },
    }),
    expected: adminOnly(200),
  },
  {
    name: 'DELETE /roles/:id',
    request: async (cell) => ({ method: 'DELETE', url: `/roles/${(await targetRole(cell)).id}` }),
    expected: adminOnly(204),
  },
  // Employee profiles
  {
    name: 'GET /employee-profiles',
    request: async ({ department }) => ({
      method: 'GET',
      url: `/employee-profiles?departmentId=${department.id}`,
    }),
    expected: { ...same(200, 403), admin: [200, 200] },
  },
  {
    name: 'GET /employees/:userId/profile',
    request: async (cell) => ({ method: 'GET', url: `/employees/${(await targetUser(cell)).id}/profile` }),
    expected: { ...same(200, 404), admin: [200, 200] },
  },
  {
    name: 'PATCH /employees/:userId/profile',
    request: async (cell) => ({
      method: 'PATCH',
      url: `/employees/${(await targetUser(cell)).id}/profile`,
      payload: { summary: 'Matrix' },
    }),
    expected: {
      admin: [200, 200],
      deptHead: [200, 404],
      approver: [403, 404],
      employee: [403, 404],
      employeeWithViewAllUsers: [403, 404],
      deptHeadWithoutAudit: [200, 404],
    },
  },
  // Audit
  {
    name: 'GET /audit',
    request: async (cell) => ({ method: 'GET', url: `/audit?userId=${(await targetUser(cell)).id}` }),
    expected: { ...same(403), admin: [200, 200], deptHead: [200, 200] },
  },
];

describe('authorization matrix', () => {
  it('covers 26 endpoints', () => {
    expect(new Set(ENDPOINTS.map((e) => e.name)).size).toBe(26);
  });

  for (const endpoint of ENDPOINTS) {
    describe(endpoint.name, () => {
      for (const caller of Object.keys(CALLERS) as Caller[]) {
        for (const [index, target] of (['own', 'other'] as const satisfies readonly Target[]).entries()) {
          const status = endpoint.expected[caller][index]!;
          it(`${caller}, ${target} department: ${status}`, async () => {
            const own = await createDepartment(ctx.container);
            const other = await createDepartment(ctx.container);
            const user = await createUser(ctx.container, { ...CALLERS[caller], departmentId: own.id });
            const request = await endpoint.request({
              caller: user,
              department: target === 'own' ? own : other,
            });
            const res = await ctx.app.inject({
              method: request.method,
              url: `/api/v1${request.url}`,
              headers: user.headers,
              ...(request.payload ? { payload: request.payload } : {}),
            });
            expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
          });
        }
      }
    });
  }
});
