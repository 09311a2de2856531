import { type TSchema, Type } from 'typebox';

/** A UUID string; ids everywhere are UUIDs (docs/api.md). */
export const Uuid = (description = 'Identifier (UUID)') => Type.String({ format: 'uuid', description });

/** An ISO 8601 UTC timestamp. */
export const DateTime = (description = 'ISO 8601 timestamp (UTC)') =>
  Type.String({ format: 'date-time', description });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const IdParams = Type.Object({ id: Uuid() });

export const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.String({ description: 'Error class name, for example ValidationError' }),
    message: Type.String({ description: 'What went wrong, for people' }),
    statusCode: Type.Integer({ description: 'HTTP status' }),
    details: Type.Optional(
      Type.Unknown({ description: 'Structured diagnostics, for example failing fields' }),
    ),
    requestId: Type.Optional(
      Type.String({ description: 'Present on 500 responses; quote it when reporting' }),
    ),
  },
  { $id: 'ErrorEnvelope' },
);

/** `limit` (1-100, default 20) and `offset` (default 0) for offset lists (docs/api.md). */
export const PaginationQuery = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)' }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Rows to skip' }),
  ),
};

/** `{ items, total, limit, offset }` */
export const OffsetPage = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item, { description: 'The rows of this page' }),
    total: Type.Integer({ description: 'Rows matching the filters' }),
    limit: Type.Integer({ description: 'Rows on one page' }),
    offset: Type.Integer({ description: 'Rows skipped before this page' }),
  });

export const OkResponse = Type.Object({ ok: Type.Boolean({ description: 'true when the action was done' }) });

/** A fresh bearer token (refresh, password change). */
export const TokenResponse = Type.Object({ token: Type.String({ description: 'JWT bearer token' }) });

/** The error responses a route can answer, referenced from the shared envelope schema. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, Type.Ref('ErrorEnvelope')]));
}

export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
