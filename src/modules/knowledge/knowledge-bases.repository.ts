import { and, count, desc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { documents, knowledgeBases, namespaces } from '../../core/db/schema/index.js';

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type NewKnowledgeBase = typeof knowledgeBases.$inferInsert;
export type KnowledgeBaseWithCount = KnowledgeBaseRow & { documentCount: number };

// Spelled out: inside a subquery drizzle would print the outer column unqualified.
const documentCount = sql<number>`(select count(*) from ${documents} d where d.knowledge_base_id = "knowledge_bases"."id")::int`;

export function createKnowledgeBasesRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<KnowledgeBaseRow | null> {
      const [row] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, id)).limit(1);
      return row ?? null;
    },

    async findWithCount(id: string, tx: DbExecutor = db): Promise<KnowledgeBaseWithCount | null> {
      const [row] = await tx
        .select({ base: knowledgeBases, documentCount })
        .from(knowledgeBases)
        .where(eq(knowledgeBases.id, id))
        .limit(1);
      return row ? { ...row.base, documentCount: row.documentCount } : null;
    },

    /** Knowledge bases inside `scope`, newest first. */
    async list(
      scope: DepartmentScope,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: KnowledgeBaseWithCount[]; total: number }> {
      const where: SQL | undefined = scopeCondition(scope, knowledgeBases.departmentId);
      const { rows, total } = await pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select({ base: knowledgeBases, documentCount })
            .from(knowledgeBases)
            .where(where)
            .orderBy(desc(knowledgeBases.createdAt), desc(knowledgeBases.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(knowledgeBases).where(where),
      });
      return {
        rows: rows.map((r) => ({ ...r.base, documentCount: r.documentCount })),
        total,
      };
    },

    /** Which of `ids` are knowledge bases of `departmentId`. */
    async idsInDepartment(
      ids: readonly string[],
      departmentId: string,
      tx: DbExecutor = db,
    ): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await tx
        .select({ id: knowledgeBases.id })
        .from(knowledgeBases)
        .where(and(inArray(knowledgeBases.id, [...ids]), eq(knowledgeBases.departmentId, departmentId)));
      return rows.map((r) => r.id);
    },

    async insert(values: NewKnowledgeBase, tx: DbExecutor = db): Promise<KnowledgeBaseRow> {
      const [row] = await tx.insert(knowledgeBases).values(values).returning();
      return row!;
    },

    async update(
      id: string,
      patch: Partial<Pick<NewKnowledgeBase, 'name' | 'description' | 'ragWeights' | 'syntheticQuestions'>>,
      tx: DbExecutor = db,
    ): Promise<KnowledgeBaseRow | null> {
      const [row] = await tx.update(knowledgeBases).set(patch).where(eq(knowledgeBases.id, id)).returning();
      return row ?? null;
    },

    /** Stored file names of the base's uploaded documents (to remove once the rows are gone). */
    async storedFiles(id: string, tx: DbExecutor = db): Promise<string[]> {
      const rows = await tx
        .select({ storedFile: documents.storedFile })
        .from(documents)
        .where(and(eq(documents.knowledgeBaseId, id), isNotNull(documents.storedFile)));
      return rows.map((r) => r.storedFile!);
    },

    /** Deletes the base; its documents and chunks go with it (foreign keys cascade). */
    async delete(id: string, tx: DbExecutor = db): Promise<boolean> {
      const rows = await tx
        .delete(knowledgeBases)
        .where(eq(knowledgeBases.id, id))
        .returning({ id: knowledgeBases.id });
      return rows.length > 0;
    },

    /** Drops `id` from every namespace's `config.knowledgeBaseIds`. */
    async unlinkFromNamespaces(id: string, tx: DbExecutor = db): Promise<void> {
      await tx
        .update(namespaces)
        .set({
          config: sql`jsonb_set(${namespaces.config}, '{knowledgeBaseIds}', coalesce(
            (select jsonb_agg(e) from jsonb_array_elements(${namespaces.config}->'knowledgeBaseIds') e
             where e <> to_jsonb(${id}::text)), '[]'::jsonb))`,
        })
        .where(sql`jsonb_typeof(${namespaces.config}->'knowledgeBaseIds') = 'array'
          and ${namespaces.config}->'knowledgeBaseIds' @> jsonb_build_array(${id}::text)`);
    },
  };
}

export type KnowledgeBasesRepository = ReturnType<typeof createKnowledgeBasesRepository>;
