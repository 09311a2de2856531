import { type Column, inArray, type SQL, sql } from 'drizzle-orm';
import { ForbiddenError, NotFoundError } from '../errors/app-errors.js';
import type { Actor } from './actor.js';

/**
 * Which departments a query may touch: `all` for global actors, else a list
 * (possibly empty). Repositories of scoped tables take one of these, so a
 * list can never forget the scope.
 */
export type DepartmentScope =
  | { readonly all: true }
  | { readonly all: false; readonly departmentIds: readonly string[] };

/** The actor's scope, narrowed to `departmentId` when the caller filters on one. */
export function departmentScope(actor: Actor, departmentId?: string | null): DepartmentScope {
  if (departmentId) {
    assertDepartmentFilter(actor, departmentId);
    return { all: false, departmentIds: [departmentId] };
  }
  if (actor.isGlobal) return { all: true };
  return { all: false, departmentIds: [...actor.departmentIds] };
}

export function canAccessDepartment(actor: Actor, departmentId: string | null | undefined): boolean {
  if (actor.isGlobal) return true;
  return departmentId != null && actor.departmentIds.has(departmentId);
}

/** An explicit `departmentId` filter outside the caller's departments is 403 (docs/access.md). */
export function assertDepartmentFilter(actor: Actor, departmentId: string): void {
  if (!canAccessDepartment(actor, departmentId)) {
    throw new ForbiddenError(`Department ${departmentId} is outside your departments`);
  }
}

/**
 * A single resource outside the caller's departments reads as not found, so
 * its existence is not revealed. Answers the row when it is visible.
 */
export function assertVisible<T>(
  actor: Actor,
  row: T | null | undefined,
  departmentOf: (row: T) => string | null | undefined,
  notFoundMessage: string,
): T {
  if (!row || !canAccessDepartment(actor, departmentOf(row))) throw new NotFoundError(notFoundMessage);
  return row;
}

/** The SQL condition a repository adds for a scope on the given department column. */
export function scopeCondition(scope: DepartmentScope, column: Column): SQL | undefined {
  if (scope.all) return undefined;
  if (scope.departmentIds.length === 0) return sql`false`;
  return inArray(column, [...scope.departmentIds]);
}
