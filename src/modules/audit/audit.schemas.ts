import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const AuditEntry = Type.Object({
  id: Uuid('Entry id'),
  userId: Nullable(Uuid('Who acted; null for anonymous requests')),
  userName: Nullable(Type.String({ description: 'Name of the user who acted' })),
  userEmail: Nullable(Type.String({ description: 'Email of the user who acted' })),
  action: Type.String({
    description: 'login, approve, reject, escalate, create, update, delete, or a route-specific action',
  }),
  entityType: Type.String({ description: 'First path segment after /api/v1, for example users' }),
  entityId: Nullable(Type.String({ description: 'Id of the entity the request named or created' })),
  changes: Type.Unknown({ description: 'Request body with secrets replaced by "[REDACTED]"' }),
  ipAddress: Nullable(Type.String({ description: 'Client address' })),
  userAgent: Nullable(Type.String({ description: 'Client user agent' })),
  createdAt: DateTime(),
});

const CommonFilters = {
  action: Type.Optional(Name('Only this action')),
  entityType: Type.Optional(Name('Only this entity type')),
  entityId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only this entity id' })),
  from: Type.Optional(DateTime('Entries at or after this time')),
  to: Type.Optional(DateTime('Entries before this time')),
  ...PaginationQuery,
};

export const ListAuditQuery = Type.Object(
  { ...CommonFilters, userId: Type.Optional(Uuid('Only entries made by this user')) },
  { additionalProperties: false },
);

export const ListUserAuditQuery = Type.Object(CommonFilters, { additionalProperties: false });

export const AuditPage = OffsetPage(AuditEntry);
