import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../core/db/client.js';
import { agentRuns, agentTasks, agentToolCalls, type retrievalHits } from '../core/db/schema/index.js';

export type AgentTaskRow = typeof agentTasks.$inferSelect;
export type NewAgentTask = typeof agentTasks.$inferInsert;
export type ToolCallRow = typeof agentToolCalls.$inferSelect;
export type NewToolCall = typeof agentToolCalls.$inferInsert;
export type NewAgentRun = typeof agentRuns.$inferInsert;
export type NewRetrievalHit = Omit<typeof retrievalHits.$inferInsert, 'runId'>;

/** Statuses after which a task never changes again. */
export const FINISHED_STATUSES = ['done', 'failed', 'timeout'] as const;
const UNFINISHED_STATUSES = ['queued', 'running'];

/** What starting a try sets: running, the first start time kept, the previous try's figures cleared. */
function startPatch(adapterType: string | undefined) {
  return {
    status: 'running',
    startedAt: sql`coalesce(${agentTasks.startedAt}, now())`,
    errorMessage: null,
    traceId: null,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    costUsd: 0,
    ...(adapterType ? { adapterType } : {}),
  };
}

/** Agent tasks, their tool calls, and the runs (traces) with their retrieval hits. */
export function createTasksRepository(db: Database) {
  return {
    async find(id: string, tx: DbExecutor = db): Promise<AgentTaskRow | null> {
      const [row] = await tx.select().from(agentTasks).where(eq(agentTasks.id, id)).limit(1);
      return row ?? null;
    },

    async findByMessage(messageId: string, tx: DbExecutor = db): Promise<AgentTaskRow | null> {
      const [row] = await tx.select().from(agentTasks).where(eq(agentTasks.messageId, messageId)).limit(1);
      return row ?? null;
    },

    async insert(values: NewAgentTask, tx: DbExecutor): Promise<AgentTaskRow> {
      const [row] = await tx.insert(agentTasks).values(values).returning();
      return row!;
    },

    /**
     * Moves a queued (or interrupted running) task to running and removes
     * what an interrupted try left behind: its tool calls and runs (hits
     * cascade). Answers null when the task is finished already. Sets the
     * adapter type the run uses when given.
     */
    async start(id: string, tx: DbExecutor, adapterType?: string): Promise<AgentTaskRow | null> {
      const [row] = await tx
        .update(agentTasks)
        .set(startPatch(adapterType))
        .where(and(eq(agentTasks.id, id), inArray(agentTasks.status, UNFINISHED_STATUSES)))
        .returning();
      if (!row) return null;
      await tx.delete(agentToolCalls).where(eq(agentToolCalls.taskId, id));
      await tx.delete(agentRuns).where(eq(agentRuns.taskId, id));
      return row;
    },

    /**
     * The first start of a task that no try has started yet: one UPDATE, as
     * there is nothing to clean up. Answers null when the task was started
     * (or finished) before; the caller then resumes with {@link start}.
     */
    async startFirst(id: string, adapterType?: string): Promise<AgentTaskRow | null> {
      const [row] = await db
        .update(agentTasks)
        .set(startPatch(adapterType))
        .where(and(eq(agentTasks.id, id), eq(agentTasks.status, 'queued'), isNull(agentTasks.startedAt)))
        .returning();
      return row ?? null;
    },

    /** Ends a task that is not finished yet; answers null when it already was (nothing changes). */
    async finish(
      id: string,
      patch: {
        status: (typeof FINISHED_STATUSES)[number];
        output?: Record<string, unknown> | null;
        errorMessage?: string | null;
        finishedAt: Date;
      },
      tx: DbExecutor = db,
    ): Promise<AgentTaskRow | null> {
      const [row] = await tx
        .update(agentTasks)
        .set({
          status: patch.status,
          ...(patch.output !== undefined ? { output: patch.output } : {}),
          errorMessage: patch.errorMessage ?? null,
          finishedAt: patch.finishedAt,
          durationMs: sql`greatest(0, round(extract(epoch from (${patch.finishedAt.toISOString()}::timestamptz - coalesce(${agentTasks.startedAt}, ${agentTasks.createdAt}))) * 1000))::integer`,
        })
        .where(and(eq(agentTasks.id, id), inArray(agentTasks.status, UNFINISHED_STATUSES)))
        .returning();
      return row ?? null;
    },

    async insertToolCall(values: NewToolCall, tx: DbExecutor = db): Promise<ToolCallRow> {
      const [row] = await tx.insert(agentToolCalls).values(values).returning();
      return row!;
    },

    /** Writes several tool calls in one INSERT; answers them in the order given. */
    async insertToolCalls(values: NewToolCall[], tx: DbExecutor = db): Promise<ToolCallRow[]> {
      if (values.length === 0) return [];
      // created_at orders a task's calls: a microsecond apart, after the task's earlier calls.
      const rows = await tx
        .insert(agentToolCalls)
        .values(
          values.map((value, i) => ({
            ...value,
            createdAt: sql`${nextToolCallTime(sql`${value.taskId}::uuid`)} + ${i} * interval '1 microsecond'`,
          })),
        )
        .returning();
      const byStep = new Map(rows.map((row) => [row.stepName, row]));
      return values.map((value) => byStep.get(value.stepName)!);
    },

    async toolCalls(taskId: string, tx: DbExecutor = db): Promise<ToolCallRow[]> {
      return tx
        .select()
        .from(agentToolCalls)
        .where(eq(agentToolCalls.taskId, taskId))
        .orderBy(asc(agentToolCalls.createdAt), asc(agentToolCalls.id));
    },

    /**
     * Writes the run (trace) of a generation with its hits and puts its
     * tokens and cost on the task, in one statement (so one round trip, and
     * atomic like a transaction).
     */
    async insertRun(run: NewAgentRun, hits: NewRetrievalHit[]): Promise<string> {
      const runId = run.id ?? randomUUID();
      const hitRows = JSON.stringify(
        hits.map((hit) => ({
          chunkId: hit.chunkId ?? null,
          documentId: hit.documentId ?? null,
          rank: hit.rank,
          score: hit.score,
          vectorScore: hit.vectorScore ?? null,
          keywordScore: hit.keywordScore ?? null,
        })),
      );
      await db.execute(sql`WITH run AS (
          INSERT INTO agent_runs (id, trace_id, task_id, department_id, namespace_id, provider, model,
            input_tokens, output_tokens, total_tokens, cost_usd, latency_ms)
          VALUES (${runId}, ${run.traceId}, ${run.taskId ?? null}, ${run.departmentId ?? null}, ${run.namespaceId ?? null},
            ${run.provider}, ${run.model}, ${run.inputTokens ?? 0}, ${run.outputTokens ?? 0}, ${run.totalTokens ?? 0},
            ${run.costUsd ?? 0}, ${run.latencyMs ?? 0})
          RETURNING id, task_id
        ),
        hits AS (
          INSERT INTO retrieval_hits (run_id, chunk_id, document_id, rank, score, vector_score, keyword_score)
          SELECT run.id, (h ->> 'chunkId')::uuid, (h ->> 'documentId')::uuid, (h ->> 'rank')::integer,
            (h ->> 'score')::float8, (h ->> 'vectorScore')::float8, (h ->> 'keywordScore')::float8
          FROM run, jsonb_array_elements(${hitRows}::jsonb) AS h
        )
        UPDATE agent_tasks SET trace_id = ${run.traceId}, input_tokens = ${run.inputTokens ?? 0},
          output_tokens = ${run.outputTokens ?? 0}, total_tokens = ${run.totalTokens ?? 0}, cost_usd = ${run.costUsd ?? 0}
        WHERE id = (SELECT task_id FROM run)`);
      return runId;
    },

    async setAdapterType(id: string, adapterType: string, tx: DbExecutor = db): Promise<void> {
      await tx.update(agentTasks).set({ adapterType }).where(eq(agentTasks.id, id));
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;

/**
 * When a task's next tool call is written: now, or a microsecond after its
 * latest call when that is not earlier. `now()` is the transaction's start,
 * and the embedded database's clock counts milliseconds: two writes of one
 * task within a millisecond would otherwise tie on created_at, which orders
 * the calls.
 */
export function nextToolCallTime(taskId: SQL): SQL {
  return sql`(SELECT greatest(now(), max(created_at) + interval '1 microsecond')
    FROM agent_tool_calls WHERE task_id = ${taskId})`;
}
