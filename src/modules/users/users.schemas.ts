import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';
import { Email, NewPassword } from '../../core/http/user-fields.js';
import { RoleSummary } from '../roles/role-summary.js';
import { PermissionName, RoleSlug } from '../roles/roles.schemas.js';

export const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Display name' });
/** E.164: optional '+', then 7 to 15 digits; stored without the '+'. */
const Phone = Type.String({
  pattern: '^\\+?[1-9][0-9]{6,14}$',
  maxLength: 16,
  errorMessage: 'must be a phone number in E.164 form: 7 to 15 digits, optionally after a +',
  description:
    'Phone number in E.164 form (7 to 15 digits, optional leading +); channel A matches senders by it',
});

/** en, uk or ru, or null: the language of what the service writes to the user unprompted. */
export const UserLanguageField = Nullable(
  Type.Union([Type.Literal('en'), Type.Literal('uk'), Type.Literal('ru')], {
    description: 'en, uk or ru: the language of what the service writes to the user unprompted',
  }),
);

export const UserResponse = Type.Object({
  id: Uuid('User id'),
  email: Type.String(),
  name: Type.String(),
  phone: Nullable(Type.String({ description: 'E.164 digits without +' })),
  role: Type.String({ description: 'Role slug' }),
  roleId: Uuid('Role id'),
  departmentId: Uuid('Primary department'),
  isActive: Type.Boolean({ description: 'False once deactivated' }),
  extraPermissions: Type.Array(Type.String(), { description: 'Per-user permission grants' }),
  revokedPermissions: Type.Array(Type.String(), { description: 'Per-user permission revocations' }),
  extraDepartmentIds: Type.Array(Type.String(), { description: 'Per-user extra departments' }),
  revokedDepartmentIds: Type.Array(Type.String(), { description: 'Per-user removed departments' }),
  avatarUrl: Nullable(Type.String({ description: 'Path of the avatar image, null when none' })),
  language: UserLanguageField,
  lastLoginAt: Nullable(DateTime('Last successful login')),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ListUsersQuery = Type.Object(
  {
    role: Type.Optional(RoleSlug),
    departmentId: Type.Optional(Uuid('Only users whose primary department is this one')),
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or email' }),
    ),
    isActive: Type.Optional(Type.Boolean({ description: 'Only active (true) or deactivated (false) users' })),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const CreateUserBody = Type.Object(
  {
    email: Email,
    password: NewPassword('Password: 8 to 128 characters, with at least one letter and one digit'),
    name: Name,
    phone: Type.Optional(Nullable(Phone)),
    role: Type.Optional(RoleSlug),
    roleId: Type.Optional(Uuid('Role id; must agree with role when both are sent')),
    departmentId: Uuid('Primary department'),
  },
  { additionalProperties: false },
);

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(Name),
    phone: Type.Optional(Nullable(Phone)),
    language: Type.Optional(UserLanguageField),
    role: Type.Optional(RoleSlug),
    roleId: Type.Optional(Uuid('Role id; must agree with role when both are sent')),
    departmentId: Type.Optional(Uuid('Primary department')),
    isActive: Type.Optional(
      Type.Boolean({ description: 'false deactivates the user and ends their sessions' }),
    ),
  },
  { additionalProperties: false },
);

export const OverrideBody = Type.Object(
  {
    permission: Type.Optional(PermissionName),
    departmentId: Type.Optional(Uuid('An existing department')),
  },
  {
    additionalProperties: false,
    // Exactly one of the two: the only properties allowed, and one of them.
    minProperties: 1,
    maxProperties: 1,
    description: 'Exactly one of permission or departmentId',
    errorMessage: 'must have exactly one of permission or departmentId',
  },
);

export const OverrideParams = Type.Object({
  id: Uuid('User id'),
  permission: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The entry to remove: a permission name or a department id',
  }),
});

export const EffectiveAccessResponse = Type.Object({
  userId: Uuid(),
  isGlobal: Type.Boolean({ description: 'The role covers every department' }),
  role: RoleSummary,
  overrides: Type.Object({
    extraPermissions: Type.Array(Type.String()),
    revokedPermissions: Type.Array(Type.String()),
    extraDepartmentIds: Type.Array(Type.String()),
    revokedDepartmentIds: Type.Array(Type.String()),
  }),
  effectivePermissions: Type.Array(PermissionName),
  effectiveDepartmentIds: Type.Array(Uuid()),
});

export const UserPage = OffsetPage(UserResponse);
