import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

export const SLUG_PATTERN = '^[\\p{Ll}\\p{Lo}\\p{Nd}]+(?:-[\\p{Ll}\\p{Lo}\\p{Nd}]+)*$';

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Display name' });
const Slug = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: SLUG_PATTERN,
  description: 'URL-safe unique key: lower-case letters and digits joined by single hyphens',
});
const Color = Type.String({
  pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
  maxLength: 7,
  description: 'Hex colour, #rgb or #rrggbb',
});
const Description = Nullable(Type.String({ maxLength: 2000, description: 'Free text' }));
const Settings = Type.Object(
  {
    defaultNamespaceId: Type.Optional(
      Nullable(Uuid('Namespace of this department that answers channel messages by default')),
    ),
  },
  {
    additionalProperties: true,
    maxProperties: 50,
    propertyNames: { maxLength: 100 },
    description: 'Free-form settings, at most 50 keys and 16 KB as JSON',
  },
);

export const DepartmentResponse = Type.Object({
  id: Uuid('Department id'),
  name: Type.String(),
  slug: Type.String(),
  color: Type.String(),
  description: Nullable(Type.String()),
  settings: Type.Record(Type.String(), Type.Unknown()),
  isArchived: Type.Boolean(),
  archivedAt: Nullable(DateTime('When the department was archived')),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ListDepartmentsQuery = Type.Object(
  {
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or slug' }),
    ),
    includeArchived: Type.Optional(
      Type.Boolean({ default: false, description: 'Also list archived departments' }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const CreateDepartmentBody = Type.Object(
  {
    name: Name,
    slug: Type.Optional(Slug),
    color: Type.Optional(Color),
    description: Type.Optional(Description),
    settings: Type.Optional(Settings),
  },
  { additionalProperties: false },
);

export const UpdateDepartmentBody = Type.Object(
  {
    name: Type.Optional(Name),
    color: Type.Optional(Color),
    description: Type.Optional(Description),
    settings: Type.Optional(Settings),
  },
  { additionalProperties: false },
);

export const DepartmentPage = OffsetPage(DepartmentResponse);
