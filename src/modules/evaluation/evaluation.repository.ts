import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import {
  type EvalCaseRow,
  type EvalRunRow,
  evalCases,
  evalRuns,
  namespaces,
} from '../../core/db/schema/index.js';

export type { EvalCaseRow, EvalRunRow };
export type NewEvalCase = typeof evalCases.$inferInsert;

/** The run columns a listing answers (the per-case results stay out of lists). */
const runSummary = {
  id: evalRuns.id,
  namespaceId: evalRuns.namespaceId,
  status: evalRuns.status,
  caseCount: evalRuns.caseCount,
  processed: evalRuns.processed,
  totals: evalRuns.totals,
  error: evalRuns.error,
  requestedBy: evalRuns.requestedBy,
  createdAt: evalRuns.createdAt,
  startedAt: evalRuns.startedAt,
  finishedAt: evalRuns.finishedAt,
};

export type EvalRunSummaryRow = Omit<EvalRunRow, 'results'>;

/** The evaluation tables: a namespace's golden questions and the runs over them. */
export function createEvaluationRepository(db: Database) {
  return {
    /**
     * Locks the namespace row until the transaction ends, so two requests
     * counting its cases or its active runs cannot both pass a limit.
     */
    async lockNamespace(namespaceId: string, tx: DbExecutor): Promise<void> {
      await tx
        .select({ id: namespaces.id })
        .from(namespaces)
        .where(eq(namespaces.id, namespaceId))
        .for('update');
    },

    async countCases(namespaceId: string, tx: DbExecutor = db): Promise<number> {
      const [row] = await tx
        .select({ total: count() })
        .from(evalCases)
        .where(eq(evalCases.namespaceId, namespaceId));
      return row?.total ?? 0;
    },

    async insertCase(values: NewEvalCase, tx: DbExecutor = db): Promise<EvalCaseRow> {
      const [row] = await tx.insert(evalCases).values(values).returning();
      return row!;
    },

    /** The namespace's cases, oldest first (the order a run evaluates them in). */
    async listCases(namespaceId: string, page: Page, tx: DbExecutor = db) {
      const where = eq(evalCases.namespaceId, namespaceId);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select()
            .from(evalCases)
            .where(where)
            .orderBy(asc(evalCases.createdAt), asc(evalCases.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(evalCases).where(where),
      });
    },

    /** Every case of the namespace, oldest first, at most `limit`. */
    async allCases(namespaceId: string, limit: number, tx: DbExecutor = db): Promise<EvalCaseRow[]> {
      return tx
        .select()
        .from(evalCases)
        .where(eq(evalCases.namespaceId, namespaceId))
        .orderBy(asc(evalCases.createdAt), asc(evalCases.id))
        .limit(limit);
    },

    /** Deletes one case of the namespace; false when it has no such case. */
    async deleteCase(namespaceId: string, caseId: string, tx: DbExecutor = db): Promise<boolean> {
      const rows = await tx
        .delete(evalCases)
        .where(and(eq(evalCases.namespaceId, namespaceId), eq(evalCases.id, caseId)))
        .returning({ id: evalCases.id });
      return rows.length > 0;
    },

    async insertRun(
      values: { namespaceId: string; requestedBy: string | null; caseCount: number },
      tx: DbExecutor = db,
    ): Promise<EvalRunRow> {
      const [row] = await tx.insert(evalRuns).values(values).returning();
      return row!;
    },

    /** The namespace's run that is queued or running, if any. */
    async activeRun(namespaceId: string, tx: DbExecutor = db): Promise<EvalRunSummaryRow | null> {
      const [row] = await tx
        .select(runSummary)
        .from(evalRuns)
        .where(and(eq(evalRuns.namespaceId, namespaceId), inArray(evalRuns.status, ['queued', 'running'])))
        .limit(1);
      return row ?? null;
    },

    async findRun(runId: string, tx: DbExecutor = db): Promise<EvalRunRow | null> {
      const [row] = await tx.select().from(evalRuns).where(eq(evalRuns.id, runId)).limit(1);
      return row ?? null;
    },

    /** The namespace's runs, newest first, without their per-case results. */
    async listRuns(namespaceId: string, page: Page, tx: DbExecutor = db) {
      const where = eq(evalRuns.namespaceId, namespaceId);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select(runSummary)
            .from(evalRuns)
            .where(where)
            .orderBy(desc(evalRuns.createdAt), desc(evalRuns.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(evalRuns).where(where),
      });
    },

    /** Marks the run running from the start (a run taken again after a crash starts over). */
    async markRunning(runId: string, caseCount: number, tx: DbExecutor = db): Promise<void> {
      await tx
        .update(evalRuns)
        .set({ status: 'running', startedAt: new Date(), processed: 0, caseCount })
        .where(and(eq(evalRuns.id, runId), inArray(evalRuns.status, ['queued', 'running'])));
    },

    async setProgress(runId: string, processed: number, tx: DbExecutor = db): Promise<void> {
      await tx.update(evalRuns).set({ processed }).where(eq(evalRuns.id, runId));
    },

    async complete(
      runId: string,
      values: { results: unknown[]; totals: Record<string, number | null> },
      tx: DbExecutor = db,
    ): Promise<void> {
      await tx
        .update(evalRuns)
        .set({
          status: 'completed',
          results: values.results,
          totals: values.totals,
          processed: values.results.length,
          finishedAt: new Date(),
        })
        .where(and(eq(evalRuns.id, runId), eq(evalRuns.status, 'running')));
    },

    /** Ends a run that is not finished as failed with `error`; false when it had finished already. */
    async fail(runId: string, error: string, tx: DbExecutor = db): Promise<boolean> {
      const rows = await tx
        .update(evalRuns)
        .set({ status: 'failed', error: error.slice(0, 2000), finishedAt: new Date() })
        .where(and(eq(evalRuns.id, runId), inArray(evalRuns.status, ['queued', 'running'])))
        .returning({ id: evalRuns.id });
      return rows.length > 0;
    },

    /** Runs queued or running since before `before`, oldest first, at most `limit` (the lost-run sweep). */
    async unfinishedBefore(before: Date, limit: number, tx: DbExecutor = db): Promise<EvalRunSummaryRow[]> {
      return tx
        .select(runSummary)
        .from(evalRuns)
        .where(and(sql`${evalRuns.status} in ('queued', 'running')`, lt(evalRuns.createdAt, before)))
        .orderBy(asc(evalRuns.createdAt))
        .limit(limit);
    },
  };
}

export type EvaluationRepository = ReturnType<typeof createEvaluationRepository>;
