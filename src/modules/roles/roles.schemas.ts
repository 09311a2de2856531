import { Type } from 'typebox';
import { PERMISSIONS, type Permission } from '../../core/auth/permissions.js';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

/** One of the 19 permission names; anything else is 422. */
export const PermissionName = Type.Unsafe<Permission>({
  type: 'string',
  enum: [...PERMISSIONS],
  description: 'Permission name',
});

export const ROLE_SLUG_PATTERN = '^[\\p{Ll}\\p{Lo}\\p{Nd}]+(?:[-_][\\p{Ll}\\p{Lo}\\p{Nd}]+)*$';

export const RoleSlug = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: ROLE_SLUG_PATTERN,
  description: 'Role slug: lower-case letters and digits joined by single hyphens or underscores',
});

export const RoleResponse = Type.Object({
  id: Uuid('Role id'),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  allDepartments: Type.Boolean({ description: 'Holders are global: they see every department' }),
  departmentIds: Type.Array(Uuid(), { description: 'Departments every holder reaches besides their own' }),
  permissions: Type.Array(Type.String({ description: 'Permission name' })),
  isSystem: Type.Boolean({ description: 'Seeded role; cannot be deleted and keeps its slug' }),
  userCount: Type.Integer({ description: 'Users holding the role' }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

const fields = {
  name: Type.String({ minLength: 1, maxLength: 100, description: 'Display name' }),
  slug: RoleSlug,
  description: Nullable(Type.String({ maxLength: 1000, description: 'Free text' })),
  allDepartments: Type.Boolean({ description: 'Holders see every department' }),
  departmentIds: Type.Array(Uuid(), { maxItems: 500, description: 'Existing department ids' }),
  permissions: Type.Array(PermissionName, { maxItems: 100, description: 'Permission names' }),
};

export const CreateRoleBody = Type.Object(
  {
    name: fields.name,
    slug: Type.Optional(fields.slug),
    description: Type.Optional(fields.description),
    allDepartments: Type.Optional(fields.allDepartments),
    departmentIds: Type.Optional(fields.departmentIds),
    permissions: Type.Optional(fields.permissions),
  },
  { additionalProperties: false },
);

/** The create body's fields, every one optional: a PATCH changes only what it sends. */
export const UpdateRoleBody = Type.Partial(CreateRoleBody, { additionalProperties: false });

export const ListRolesQuery = Type.Object(
  {
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name or slug' }),
    ),
    includeSystem: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Also list the system roles (admin, dept_head, approver, employee)',
      }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const RolePage = OffsetPage(RoleResponse);
