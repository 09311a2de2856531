import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { type DepartmentScope, scopeCondition } from '../../core/auth/department-scope.js';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { chunks, documents } from '../../core/db/schema/index.js';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;
export type ChunkRow = typeof chunks.$inferSelect;
export type NewChunk = typeof chunks.$inferInsert;

export interface DocumentFilters {
  knowledgeBaseId?: string;
  status?: string;
  type?: string;
}

export function createDocumentsRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<DocumentRow | null> {
      const [row] = await tx.select().from(documents).where(eq(documents.id, id)).limit(1);
      return row ?? null;
    },

    /** The row locked until the transaction ends, so ingestion and requests change it one at a time. */
    async findForUpdate(id: string, tx: DbExecutor): Promise<DocumentRow | null> {
      const [row] = await tx.select().from(documents).where(eq(documents.id, id)).limit(1).for('update');
      return row ?? null;
    },

    /** Documents inside `scope`, newest first. */
    async list(
      scope: DepartmentScope,
      filters: DocumentFilters,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: DocumentRow[]; total: number }> {
      const conditions: (SQL | undefined)[] = [scopeCondition(scope, documents.departmentId)];
      if (filters.knowledgeBaseId) conditions.push(eq(documents.knowledgeBaseId, filters.knowledgeBaseId));
      if (filters.status) conditions.push(eq(documents.status, filters.status));
      if (filters.type) conditions.push(eq(documents.type, filters.type));
      const where = and(...conditions);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(documents)
            .where(where)
            .orderBy(desc(documents.createdAt), desc(documents.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(documents).where(where),
      });
    },

    /** Ids of every document of every department, oldest first (maintenance commands only). */
    async listAllIds(tx: DbExecutor = db): Promise<string[]> {
      const rows = await tx
        .select({ id: documents.id })
        .from(documents)
        .orderBy(asc(documents.createdAt), asc(documents.id));
      return rows.map((row) => row.id);
    },

    async insert(values: NewDocument, tx: DbExecutor = db): Promise<DocumentRow> {
      const [row] = await tx.insert(documents).values(values).returning();
      return row!;
    },

    async update(id: string, patch: Partial<NewDocument>, tx: DbExecutor = db): Promise<DocumentRow | null> {
      const [row] = await tx.update(documents).set(patch).where(eq(documents.id, id)).returning();
      return row ?? null;
    },

    /** Deletes the document; its chunks go with it (the foreign key cascades). */
    async delete(id: string, tx: DbExecutor = db): Promise<DocumentRow | null> {
      const [row] = await tx.delete(documents).where(eq(documents.id, id)).returning();
      return row ?? null;
    },

    async countChunks(documentId: string, tx: DbExecutor = db): Promise<number> {
      const [row] = await tx.select({ total: count() }).from(chunks).where(eq(chunks.documentId, documentId));
      return row?.total ?? 0;
    },

    /** Held-back chunks (ingestion-time injection scan) of each document; documents without any are absent. */
    async countHeldBack(documentIds: readonly string[], tx: DbExecutor = db): Promise<Map<string, number>> {
      if (documentIds.length === 0) return new Map();
      const rows = await tx
        .select({ documentId: chunks.documentId, total: count() })
        .from(chunks)
        .where(and(inArray(chunks.documentId, [...documentIds]), eq(chunks.heldBack, true)))
        .groupBy(chunks.documentId);
      return new Map(rows.map((r) => [r.documentId, Number(r.total)]));
    },

    /** The first `limit` held-back chunks of a document in reading order, with the scan's verdict. */
    async listHeldBack(documentId: string, limit: number, tx: DbExecutor = db) {
      return tx
        .select({
          id: chunks.id,
          chunkIndex: chunks.chunkIndex,
          content: chunks.content,
          injection: chunks.injection,
        })
        .from(chunks)
        .where(and(eq(chunks.documentId, documentId), eq(chunks.heldBack, true)))
        .orderBy(asc(chunks.chunkIndex))
        .limit(limit);
    },

    /** Chunks of a document in reading order, without their embeddings. */
    async listChunks(documentId: string, page: Page, tx: DbExecutor = db) {
      return tx
        .select({
          id: chunks.id,
          chunkIndex: chunks.chunkIndex,
          content: chunks.content,
          tokenCount: chunks.tokenCount,
          metadata: chunks.metadata,
          heldBack: chunks.heldBack,
        })
        .from(chunks)
        .where(eq(chunks.documentId, documentId))
        .orderBy(asc(chunks.chunkIndex))
        .limit(page.limit)
        .offset(page.offset);
    },

    /** Replaces every chunk of a document (reprocessing starts from a clean slate). */
    async replaceChunks(documentId: string, rows: readonly NewChunk[], tx: DbExecutor): Promise<void> {
      await tx.delete(chunks).where(eq(chunks.documentId, documentId));
      // Bounded statements: a long document does not become one huge INSERT.
      for (let i = 0; i < rows.length; i += 100) {
        await tx.insert(chunks).values(rows.slice(i, i + 100));
      }
    },
  };
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
