import { and, count, desc, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { DepartmentScope } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { documentGenerations } from '../../core/db/schema/index.js';

export type GenerationRow = typeof documentGenerations.$inferSelect;
export type NewGeneration = typeof documentGenerations.$inferInsert;

/**
 * Whose history a caller reads: their own rows always, and every row of
 * `managed` (the departments where they manage templates) when set.
 */
export interface GenerationVisibility {
  userId: string;
  managed: DepartmentScope | null;
}

export interface GenerationFilters {
  userId?: string;
  templateId?: string;
}

function visibleCondition(visibility: GenerationVisibility): SQL | undefined {
  const own = eq(documentGenerations.userId, visibility.userId);
  const { managed } = visibility;
  if (!managed) return own;
  if (managed.all) return undefined;
  if (managed.departmentIds.length === 0) return own;
  return or(own, inArray(documentGenerations.departmentId, [...managed.departmentIds]));
}

export function createDocumentGenerationsRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<GenerationRow | null> {
      const [row] = await tx
        .select()
        .from(documentGenerations)
        .where(eq(documentGenerations.id, id))
        .limit(1);
      return row ?? null;
    },

    /** The visible history, filtered, newest first (without the rendered content). */
    async list(
      visibility: GenerationVisibility,
      filters: GenerationFilters,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: GenerationRow[]; total: number }> {
      const where = and(
        visibleCondition(visibility),
        filters.userId ? eq(documentGenerations.userId, filters.userId) : undefined,
        filters.templateId ? eq(documentGenerations.templateId, filters.templateId) : undefined,
      );
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select({ ...columnsWithoutContent(), content: sql<null>`null` })
            .from(documentGenerations)
            .where(where)
            .orderBy(desc(documentGenerations.createdAt), desc(documentGenerations.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(documentGenerations).where(where),
      });
    },

    async insert(values: NewGeneration, tx: DbExecutor = db): Promise<GenerationRow> {
      const [row] = await tx.insert(documentGenerations).values(values).returning();
      return row!;
    },
  };
}

/** Every column but `content`, which lists do not answer (it can be large). */
function columnsWithoutContent() {
  const { content: _content, ...columns } = getTableColumns(documentGenerations);
  return columns;
}

export type DocumentGenerationsRepository = ReturnType<typeof createDocumentGenerationsRepository>;
