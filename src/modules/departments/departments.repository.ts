import { and, asc, count, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { departments, namespaces } from '../../core/db/schema/index.js';
import { containsPattern } from '../../core/db/sql-helpers.js';

export type DepartmentRow = typeof departments.$inferSelect;
export type NewDepartment = typeof departments.$inferInsert;

export interface DepartmentFilters {
  search?: string;
  includeArchived: boolean;
}

/** The prepared list and count of one scope shape (all, or a list of ids) with or without archived rows. */
function prepareList(db: Database, all: boolean, includeArchived: boolean) {
  const conditions: SQL[] = [];
  if (!all) conditions.push(sql`${departments.id} = any(${sql.placeholder('ids')}::uuid[])`);
  if (!includeArchived) conditions.push(isNull(departments.archivedAt));
  const where = and(...conditions);
  const name = `departments_list_${all ? 'all' : 'ids'}_${includeArchived ? 'with' : 'without'}_archived`;
  return {
    // The window count rides along with the page: one query answers both while the page has rows.
    rows: db
      .select({ department: departments, total: sql<number>`(count(*) over ())::int` })
      .from(departments)
      .where(where)
      .orderBy(asc(departments.name), asc(departments.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name),
    count: db.select({ total: count() }).from(departments).where(where).prepare(`${name}_count`),
  };
}

export function createDepartmentsRepository(db: Database) {
  // Lists without a search term (the common case) run prepared statements, one per scope shape.
  const prepared = new Map<string, ReturnType<typeof prepareList>>();
  function preparedList(all: boolean, includeArchived: boolean) {
    const key = `${all}:${includeArchived}`;
    let statements = prepared.get(key);
    if (!statements) {
      statements = prepareList(db, all, includeArchived);
      prepared.set(key, statements);
    }
    return statements;
  }

  return {
    async findById(id: string, tx: DbExecutor = db): Promise<DepartmentRow | null> {
      const [row] = await tx.select().from(departments).where(eq(departments.id, id)).limit(1);
      return row ?? null;
    },

    async findBySlug(slug: string, tx: DbExecutor = db): Promise<DepartmentRow | null> {
      const [row] = await tx.select().from(departments).where(eq(departments.slug, slug)).limit(1);
      return row ?? null;
    },

    async findByName(name: string, tx: DbExecutor = db): Promise<DepartmentRow | null> {
      const [row] = await tx.select().from(departments).where(eq(departments.name, name)).limit(1);
      return row ?? null;
    },

    async findByIds(ids: readonly string[], tx: DbExecutor = db): Promise<DepartmentRow[]> {
      if (ids.length === 0) return [];
      return tx
        .select()
        .from(departments)
        .where(inArray(departments.id, [...ids]));
    },

    async insert(values: NewDepartment, tx: DbExecutor = db): Promise<DepartmentRow> {
      const [row] = await tx.insert(departments).values(values).returning();
      return row!;
    },

    async update(
      id: string,
      patch: Partial<NewDepartment>,
      tx: DbExecutor = db,
    ): Promise<DepartmentRow | null> {
      const [row] = await tx.update(departments).set(patch).where(eq(departments.id, id)).returning();
      return row ?? null;
    },

    /** Sets archivedAt unless already set (the first archive time is kept). */
    async archive(id: string, at: Date, tx: DbExecutor = db): Promise<DepartmentRow | null> {
      const [row] = await tx
        .update(departments)
        .set({ archivedAt: sql`coalesce(${departments.archivedAt}, ${at.toISOString()}::timestamptz)` })
        .where(eq(departments.id, id))
        .returning();
      return row ?? null;
    },

    /** Departments inside `scope`, by name. */
    async list(
      scope: DepartmentScope,
      filters: DepartmentFilters,
      page: { limit: number; offset: number },
      tx: DbExecutor = db,
    ): Promise<{ rows: DepartmentRow[]; total: number }> {
      if (!filters.search && tx === db) {
        if (!scope.all && scope.departmentIds.length === 0) return { rows: [], total: 0 };
        const statements = preparedList(scope.all, filters.includeArchived);
        const params = { ...page, ids: scope.all ? [] : [...scope.departmentIds] };
        const rows = await statements.rows.execute(params);
        if (rows.length > 0) return { rows: rows.map((r) => r.department), total: rows[0]!.total };
        // An empty page says nothing about the total past it.
        if (page.offset === 0) return { rows: [], total: 0 };
        const [counted] = await statements.count.execute(params);
        return { rows: [], total: counted?.total ?? 0 };
      }
      const conditions: (SQL | undefined)[] = [scopeCondition(scope, departments.id)];
      if (!filters.includeArchived) conditions.push(isNull(departments.archivedAt));
      if (filters.search) {
        const pattern = containsPattern(filters.search);
        conditions.push(or(ilike(departments.name, pattern), ilike(departments.slug, pattern)));
      }
      const where = and(...conditions);
      const rows = await tx
        .select()
        .from(departments)
        .where(where)
        .orderBy(asc(departments.name), asc(departments.id))
        .limit(page.limit)
        .offset(page.offset);
      const [counted] = await tx.select({ total: count() }).from(departments).where(where);
      return { rows, total: counted?.total ?? 0 };
    },

    /** Slugs equal to `base` or of the form `base-<n>`, to pick a free one. */
    async slugsLike(base: string, tx: DbExecutor = db): Promise<string[]> {
      const rows = await tx
        .select({ slug: departments.slug })
        .from(departments)
        .where(
          or(eq(departments.slug, base), ilike(departments.slug, `${containsPattern(base).slice(1, -1)}-%`)),
        );
      return rows.map((r) => r.slug);
    },

    async namespaceBelongsTo(
      namespaceId: string,
      departmentId: string,
      tx: DbExecutor = db,
    ): Promise<boolean> {
      const [row] = await tx
        .select({ id: namespaces.id })
        .from(namespaces)
        .where(and(eq(namespaces.id, namespaceId), eq(namespaces.departmentId, departmentId)))
        .limit(1);
      return Boolean(row);
    },
  };
}

export type DepartmentsRepository = ReturnType<typeof createDepartmentsRepository>;
