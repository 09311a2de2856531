import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { learningSuggestions } from '../../core/db/schema/index.js';

export type SuggestionRow = typeof learningSuggestions.$inferSelect;
export type NewSuggestion = typeof learningSuggestions.$inferInsert;
export type SuggestionType = 'example' | 'answer';
export type SuggestionStatus = 'open' | 'accepted' | 'dismissed';

/** Open suggestions one edit is compared with at most (the most recently folded first). */
export const FOLD_CANDIDATES_MAX = 500;

/** The learning_suggestions table: what edited approvals teach, folded per question. */
export function createLearningRepository(db: Database) {
  return {
    /**
     * Serialises the edits of one namespace and suggestion type until the
     * transaction ends: row locks alone cannot stop two edits of a question
     * nobody asked before from both inserting a suggestion.
     */
    async lockFolding(namespaceId: string, type: SuggestionType, tx: DbExecutor): Promise<void> {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`learning:${namespaceId}:${type}`}, 0))`,
      );
    },

    /**
     * The open suggestions an edit may fold into, locked (FOR UPDATE): of the
     * namespace and type and, for `example`, the intent; newest fold first.
     */
    async lockOpenCandidates(
      filter: { namespaceId: string; type: SuggestionType; intentName: string | null },
      tx: DbExecutor,
    ): Promise<SuggestionRow[]> {
      const conditions: SQL[] = [
        eq(learningSuggestions.namespaceId, filter.namespaceId),
        eq(learningSuggestions.type, filter.type),
        eq(learningSuggestions.status, 'open'),
      ];
      if (filter.intentName !== null) conditions.push(eq(learningSuggestions.intentName, filter.intentName));
      return tx
        .select()
        .from(learningSuggestions)
        .where(and(...conditions))
        .orderBy(desc(learningSuggestions.updatedAt), desc(learningSuggestions.id))
        .limit(FOLD_CANDIDATES_MAX)
        .for('update');
    },

    async insert(values: NewSuggestion, tx: DbExecutor = db): Promise<SuggestionRow> {
      const [row] = await tx.insert(learningSuggestions).values(values).returning();
      return row!;
    },

    /** One more edit of the suggestion's question: count + 1, the approval appended, the newest answer. */
    async fold(
      id: string,
      values: { approvalId: string; answer: string | null },
      tx: DbExecutor = db,
    ): Promise<SuggestionRow> {
      const [row] = await tx
        .update(learningSuggestions)
        .set({
          count: sql`${learningSuggestions.count} + 1`,
          approvalIds: sql`${learningSuggestions.approvalIds} || ${JSON.stringify([values.approvalId])}::jsonb`,
          ...(values.answer === null ? {} : { answer: values.answer }),
          updatedAt: new Date(),
        })
        .where(eq(learningSuggestions.id, id))
        .returning();
      return row!;
    },

    async findById(id: string, tx: DbExecutor = db): Promise<SuggestionRow | null> {
      const [row] = await tx
        .select()
        .from(learningSuggestions)
        .where(eq(learningSuggestions.id, id))
        .limit(1);
      return row ?? null;
    },

    /** A namespace's suggestions, most asked first, then the most recently folded. */
    async list(
      filter: { namespaceId: string; type?: SuggestionType; status: SuggestionStatus },
      page: Page,
      tx: DbExecutor = db,
    ) {
      const where = and(
        eq(learningSuggestions.namespaceId, filter.namespaceId),
        eq(learningSuggestions.status, filter.status),
        filter.type ? eq(learningSuggestions.type, filter.type) : undefined,
      );
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(learningSuggestions)
            .where(where)
            .orderBy(
              desc(learningSuggestions.count),
              desc(learningSuggestions.updatedAt),
              desc(learningSuggestions.id),
            )
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(learningSuggestions).where(where),
      });
    },

    /**
     * Moves an open suggestion to `status` (accepted or dismissed); null when
     * it is not open any more, so of two deciders only one gets the row.
     */
    async decide(
      id: string,
      values: { status: 'accepted' | 'dismissed'; decidedById: string | null },
      tx: DbExecutor = db,
    ): Promise<SuggestionRow | null> {
      const now = new Date();
      const [row] = await tx
        .update(learningSuggestions)
        .set({ ...values, decidedAt: now, updatedAt: now })
        .where(and(eq(learningSuggestions.id, id), eq(learningSuggestions.status, 'open')))
        .returning();
      return row ?? null;
    },

    /** Opens an accepted suggestion again when what accepting it had to write failed. */
    async reopen(id: string, tx: DbExecutor = db): Promise<void> {
      await tx
        .update(learningSuggestions)
        .set({ status: 'open', decidedById: null, decidedAt: null, updatedAt: new Date() })
        .where(eq(learningSuggestions.id, id));
    },

    /** Where an accepted `answer` was written. */
    async setDocument(
      id: string,
      values: { knowledgeBaseId: string; documentId: string },
      tx: DbExecutor = db,
    ): Promise<SuggestionRow> {
      const [row] = await tx
        .update(learningSuggestions)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(learningSuggestions.id, id))
        .returning();
      return row!;
    },
  };
}

export type LearningRepository = ReturnType<typeof createLearningRepository>;
