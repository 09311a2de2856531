import { asc, eq, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { agentRuns, agentTasks, retrievalHits } from '../../core/db/schema/index.js';

export type AgentRunRow = typeof agentRuns.$inferSelect;
export type RetrievalHitRow = typeof retrievalHits.$inferSelect;

/** Runs (traces) of generations and their retrieval hits. */
export function createTracesRepository(db: Database) {
  return {
    /**
     * The run with this trace id and the department it is scoped by: its own,
     * else its task's (a run written without one).
     */
    async findByTraceId(
      traceId: string,
      tx: DbExecutor = db,
    ): Promise<{ run: AgentRunRow; scopeDepartmentId: string | null } | null> {
      const [row] = await tx
        .select({
          run: agentRuns,
          scopeDepartmentId: sql<
            string | null
          >`coalesce(${agentRuns.departmentId}, ${agentTasks.departmentId})`,
        })
        .from(agentRuns)
        .leftJoin(agentTasks, eq(agentTasks.id, agentRuns.taskId))
        .where(eq(agentRuns.traceId, traceId))
        .limit(1);
      return row ?? null;
    },

    async hits(runId: string, tx: DbExecutor = db): Promise<RetrievalHitRow[]> {
      return tx
        .select()
        .from(retrievalHits)
        .where(eq(retrievalHits.runId, runId))
        .orderBy(asc(retrievalHits.rank), asc(retrievalHits.id));
    },
  };
}

export type TracesRepository = ReturnType<typeof createTracesRepository>;
