import { Type } from 'typebox';
import { CAPABILITY_AREAS } from '../../core/auth/capabilities.js';
import { PERMISSIONS, type Permission } from '../../core/auth/permissions.js';
import { DateTime, Nullable, Uuid } from '../../core/http/schemas.js';
import { CurrentPassword, NewPassword } from '../../core/http/user-fields.js';
import { RoleSummary } from '../roles/role-summary.js';
import { Name, UserLanguageField } from '../users/users.schemas.js';

const PermissionName = Type.Unsafe<Permission>({
  type: 'string',
  enum: [...PERMISSIONS],
  description: 'Permission name',
});

export const MeResponse = Type.Object({
  user: Type.Object({
    id: Uuid('User id'),
    email: Type.String(),
    name: Type.String(),
    phone: Nullable(Type.String()),
    role: Type.String({ description: 'Role slug' }),
    roleId: Uuid('Role id'),
    departmentId: Uuid('Primary department'),
    isActive: Type.Boolean(),
    avatarUrl: Nullable(Type.String({ description: 'Path of the avatar image, null when none' })),
    language: UserLanguageField,
    createdAt: DateTime(),
  }),
  department: Nullable(
    Type.Object({
      id: Uuid(),
      name: Type.String(),
      slug: Type.String(),
      color: Type.String(),
    }),
  ),
  profile: Nullable(
    Type.Object({
      summary: Type.String(),
      currentProjects: Type.Array(Type.String()),
      frequentIntents: Type.Array(Type.String()),
      accessLevel: Type.String(),
    }),
  ),
  role: RoleSummary,
  isGlobal: Type.Boolean({ description: 'The role covers every department' }),
  approvalChannels: Type.Array(Type.Union([Type.Literal('chanA'), Type.Literal('chanB')]), {
    description: 'The chat channels where approval requests reach the user (PUT /me/approval-channels)',
  }),
  effectivePermissions: Type.Array(PermissionName),
  effectiveDepartmentIds: Type.Array(Uuid()),
  capabilities: Type.Object(
    Object.fromEntries(
      Object.entries(CAPABILITY_AREAS).map(([area, permissions]) => [
        area,
        Type.Boolean({ description: `Holds any of: ${permissions.join(', ')}` }),
      ]),
    ),
    { description: 'One boolean per permission area, for showing or hiding parts of a UI' },
  ),
});

export const ChangePasswordBody = Type.Object(
  { currentPassword: CurrentPassword, newPassword: NewPassword() },
  { additionalProperties: false },
);

export const AvatarResponse = Type.Object({
  avatarUrl: Type.String({ description: 'Path of the stored avatar, with a version query for caches' }),
});

export const UpdateMeBody = Type.Object(
  { name: Type.Optional(Name), language: Type.Optional(UserLanguageField) },
  { additionalProperties: false, minProperties: 1 },
);
