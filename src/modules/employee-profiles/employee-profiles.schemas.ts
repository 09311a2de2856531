import { Type } from 'typebox';
import { DateTime, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

const FreeObject = (description: string) =>
  Type.Record(Type.String(), Type.Unknown(), {
    maxProperties: 100,
    propertyNames: { maxLength: 100 },
    description,
  });

export const EmployeeProfileResponse = Type.Object({
  userId: Uuid('Owner of the profile'),
  name: Type.String({ description: 'Name of the owner' }),
  departmentId: Uuid('Primary department of the owner'),
  isActive: Type.Boolean({ description: 'Whether the owner is active' }),
  summary: Type.String({ description: 'What the assistant should know about the employee' }),
  currentProjects: Type.Array(Type.String()),
  preferences: Type.Record(Type.String(), Type.Unknown()),
  frequentIntents: Type.Array(Type.String()),
  accessLevel: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ListEmployeeProfilesQuery = Type.Object(
  {
    departmentId: Type.Optional(Uuid('Only profiles of users whose primary department is this one')),
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Part of the owner name' }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const UserIdParams = Type.Object({ userId: Uuid('User id') });

export const UpdateEmployeeProfileBody = Type.Object(
  {
    summary: Type.Optional(Type.String({ maxLength: 5000, description: 'Free text' })),
    currentProjects: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 50,
        description: 'Project names',
      }),
    ),
    preferences: Type.Optional(FreeObject('Free-form preferences, at most 16 KB as JSON')),
    frequentIntents: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 50,
        description: 'Intent names',
      }),
    ),
    accessLevel: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description:
          'Access level label; changing it needs canManageEmployeeProfiles, also on one’s own profile',
      }),
    ),
    metadata: Type.Optional(FreeObject('Free-form metadata, at most 16 KB as JSON')),
  },
  { additionalProperties: false },
);

export const EmployeeProfilePage = OffsetPage(EmployeeProfileResponse);
