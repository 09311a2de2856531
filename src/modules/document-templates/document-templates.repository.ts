import { and, count, desc, eq, isNull, or, type SQL } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { documentTemplates } from '../../core/db/schema/index.js';

export type TemplateRow = typeof documentTemplates.$inferSelect;
export type NewTemplate = typeof documentTemplates.$inferInsert;
export type TemplatePatch = Partial<
  Pick<
    NewTemplate,
    'departmentId' | 'name' | 'description' | 'category' | 'templateBody' | 'variables' | 'outputFormat'
  >
>;

export interface TemplateFilters {
  category?: string;
  /** Exactly this department (shared templates excluded). */
  departmentId?: string;
}

export function createDocumentTemplatesRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<TemplateRow | null> {
      const [row] = await tx.select().from(documentTemplates).where(eq(documentTemplates.id, id)).limit(1);
      return row ?? null;
    },

    /** Templates of `scope` plus the shared ones (no department), newest first. */
    async list(
      scope: DepartmentScope,
      filters: TemplateFilters,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: TemplateRow[]; total: number }> {
      const inScope = scopeCondition(scope, documentTemplates.departmentId);
      const where: SQL | undefined = and(
        filters.departmentId
          ? eq(documentTemplates.departmentId, filters.departmentId)
          : inScope && or(inScope, isNull(documentTemplates.departmentId)),
        filters.category ? eq(documentTemplates.category, filters.category) : undefined,
      );
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(documentTemplates)
            .where(where)
            .orderBy(desc(documentTemplates.createdAt), desc(documentTemplates.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(documentTemplates).where(where),
      });
    },

    async insert(values: NewTemplate, tx: DbExecutor = db): Promise<TemplateRow> {
      const [row] = await tx.insert(documentTemplates).values(values).returning();
      return row!;
    },

    async update(id: string, patch: TemplatePatch, tx: DbExecutor = db): Promise<TemplateRow | null> {
      const [row] = await tx
        .update(documentTemplates)
        .set(patch)
        .where(eq(documentTemplates.id, id))
        .returning();
      return row ?? null;
    },

    /** Deletes the template; its generation history keeps the rows with a null template link. */
    async delete(id: string, tx: DbExecutor = db): Promise<boolean> {
      const rows = await tx
        .delete(documentTemplates)
        .where(eq(documentTemplates.id, id))
        .returning({ id: documentTemplates.id });
      return rows.length > 0;
    },
  };
}

export type DocumentTemplatesRepository = ReturnType<typeof createDocumentTemplatesRepository>;
