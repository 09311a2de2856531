import { and, asc, eq, inArray, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../core/db/client.js';
import { agentRuns, agentTasks, agentToolCalls, type retrievalHits } from '../core/db/schema/index.js';

export type AgentTaskRow = typeof agentTasks.$inferSelect;
export type NewAgentTask = typeof agentTasks.$inferInsert;
export type ToolCallRow = typeof agentToolCalls.$inferSelect;
export type NewToolCall = typeof agentToolCalls.$inferInsert;
export type NewAgentRun = typeof agentRuns.$inferInsert;
export type NewRetrievalHit = Omit<typeof retrievalHits.$inferInsert, 'runId'>;

/** A generation's run (trace) and its retrieval hits, to write ({@link runWrites}). */
export interface GenerationRun {
  run: NewAgentRun & { id: string; taskId: string };
  hits: NewRetrievalHit[];
}

/** Statuses after which a task never changes again. */
export const FINISHED_STATUSES = ['done', 'failed', 'timeout'] as const;
const UNFINISHED_STATUSES = ['queued', 'running'];

/** What starting a try sets: running, the first start time kept, the previous try's figures cleared. */
export function startPatch(adapterType: string | undefined) {
  return {
    status: 'running',
    startedAt: sql`coalesce(${agentTasks.startedAt}, now())`,
    errorMessage: null,
    traceId: null,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    costUsd: 0,
    usageKnown: true,
    ...(adapterType ? { adapterType } : {}),
  };
}

/** The guard of a task's first start: queued, and no try has started it. */
export function firstStartOf(taskId: Placeholder | string): SQL {
  return and(eq(agentTasks.id, taskId), eq(agentTasks.status, 'queued'), isNull(agentTasks.startedAt))!;
}

/**
 * The tool call rows of one INSERT. created_at orders a task's calls: a
 * microsecond apart, after the task's earlier calls.
 */
function toolCallRows<T extends NewToolCall>(values: T[]) {
  return values.map((value, i) => ({
    ...value,
    createdAt: sql`${nextToolCallTime(sql`${value.taskId}::uuid`)} + ${i} * interval '1 microsecond'`,
  }));
}

/** The columns of a tool call that a prepared INSERT takes as placeholders, row by row. */
const TOOL_CALL_FIELDS = [
  'taskId',
  'stepName',
  'status',
  'inputData',
  'outputData',
  'durationMs',
  'errorMessage',
] as const;

/** The JSON columns among {@link TOOL_CALL_FIELDS}: passed as JSON text (null stays SQL NULL). */
const TOOL_CALL_JSON_FIELDS: ReadonlySet<string> = new Set(['inputData', 'outputData']);

/** The placeholder values of {@link TOOL_CALL_FIELDS} for `values`, named `<field><row>`. */
function toolCallPlaceholderValues(values: NewToolCall[]): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  for (const [i, value] of values.entries()) {
    for (const field of TOOL_CALL_FIELDS) {
      // duration_ms is the one column with a default (0), which a builder INSERT would apply.
      const given = value[field] ?? (field === 'durationMs' ? 0 : null);
      named[`${field}${i}`] =
        given !== null && TOOL_CALL_JSON_FIELDS.has(field) ? JSON.stringify(given) : given;
    }
  }
  return named;
}

/** Tool call INSERTs of up to this many rows are built once; the pipeline writes one or two at a time. */
const PREPARED_TOOL_CALL_ROWS = 4;

/**
 * The statements every agent task runs, built once with placeholders: a
 * Drizzle query builder costs 80 to 100 µs of CPU to build each time
 * (measured on the two-core benchmark machine), which is most of what these
 * small statements cost the service. They run outside transactions, on the
 * pool, so they are bound to `db`. `updated_at` is written as now():
 * Drizzle's $onUpdate value would be computed once, when the statement is
 * built.
 */
function prepareTaskStatements(db: Database) {
  const insertToolCalls = new Map<number, ReturnType<typeof buildToolCallInsert>>();
  function buildToolCallInsert(rows: number) {
    const placeholder = (field: string, i: number) => sql.placeholder(`${field}${i}`);
    // The JSON columns take their text, serialised here: Drizzle's encoder would turn a null into JSON null.
    const values = Array.from({ length: rows }, (_, i) => ({
      taskId: placeholder('taskId', i),
      stepName: placeholder('stepName', i),
      status: placeholder('status', i),
      inputData: sql`${placeholder('inputData', i)}::jsonb`,
      outputData: sql`${placeholder('outputData', i)}::jsonb`,
      durationMs: placeholder('durationMs', i),
      errorMessage: placeholder('errorMessage', i),
    })) as unknown as NewToolCall[];
    return db
      .insert(agentToolCalls)
      .values(toolCallRows(values))
      .returning()
      .prepare(`tool_calls_insert_${rows}`);
  }
  return {
    startFirst: db
      .update(agentTasks)
      .set({
        ...startPatch(undefined),
        adapterType: sql`coalesce(${sql.placeholder('adapterType')}, ${agentTasks.adapterType})`,
        updatedAt: sql`now()`,
      })
      .where(firstStartOf(sql.placeholder('id')))
      .returning()
      .prepare('task_start_first'),
    /** The INSERT of `rows` tool calls; null beyond {@link PREPARED_TOOL_CALL_ROWS}. */
    insertToolCalls(rows: number) {
      if (rows > PREPARED_TOOL_CALL_ROWS) return null;
      let statement = insertToolCalls.get(rows);
      if (!statement) {
        statement = buildToolCallInsert(rows);
        insertToolCalls.set(rows, statement);
      }
      return statement;
    },
  };
}

/** Agent tasks, their tool calls, and the runs (traces) with their retrieval hits. */
export function createTasksRepository(db: Database) {
  const prepared = prepareTaskStatements(db);
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
      const [row] = await prepared.startFirst.execute({ id, adapterType: adapterType ?? null });
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
      const statement = tx === db ? prepared.insertToolCalls(values.length) : null;
      const rows = statement
        ? await statement.execute(toolCallPlaceholderValues(values))
        : await tx.insert(agentToolCalls).values(toolCallRows(values)).returning();
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
     * atomic like a transaction). The pipeline writes a run with its
     * decision instead ({@link runWrites}); this is for a run whose task
     * ends otherwise (a failing check, a plugin's hook).
     */
    async insertRun(run: GenerationRun): Promise<void> {
      await db.execute(sql`WITH ${runWrites(run, null)}
        UPDATE agent_tasks SET ${runFigures(run)} WHERE id = (SELECT task_id FROM run)`);
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

/**
 * The CTEs `run` (a generation's AgentRun) and `hits` (its retrieval
 * hits), written once from each row of the CTE `from` when given (the
 * decision's `task`: nothing when the task was finished before).
 */
export function runWrites({ run, hits }: GenerationRun, from: 'task' | null): SQL {
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
  const values = sql`${run.id}::uuid, ${run.traceId}::text, ${run.taskId}::uuid, ${run.departmentId ?? null}::uuid,
    ${run.namespaceId ?? null}::uuid, ${run.provider}::text, ${run.model}::text, ${run.inputTokens ?? 0}::integer,
    ${run.outputTokens ?? 0}::integer, ${run.totalTokens ?? 0}::integer, ${run.costUsd ?? 0}::float8,
    ${run.latencyMs ?? 0}::integer, ${run.usageKnown ?? true}::boolean`;
  return sql`run AS (
      INSERT INTO agent_runs (id, trace_id, task_id, department_id, namespace_id, provider, model,
        input_tokens, output_tokens, total_tokens, cost_usd, latency_ms, usage_known)
      ${from ? sql`SELECT ${values} FROM ${sql.raw(from)}` : sql`VALUES (${values})`}
      RETURNING id, task_id
    ),
    hits AS (
      INSERT INTO retrieval_hits (run_id, chunk_id, document_id, rank, score, vector_score, keyword_score)
      SELECT run.id, (h ->> 'chunkId')::uuid, (h ->> 'documentId')::uuid, (h ->> 'rank')::integer,
        (h ->> 'score')::float8, (h ->> 'vectorScore')::float8, (h ->> 'keywordScore')::float8
      FROM run, jsonb_array_elements(${hitRows}::jsonb) AS h
    )`;
}

/** The SET list that puts a run's trace id, tokens and cost on its task. */
export function runFigures({ run }: GenerationRun): SQL {
  return sql`trace_id = ${run.traceId}::text, input_tokens = ${run.inputTokens ?? 0}::integer,
    output_tokens = ${run.outputTokens ?? 0}::integer, total_tokens = ${run.totalTokens ?? 0}::integer,
    cost_usd = ${run.costUsd ?? 0}::float8, usage_known = ${run.usageKnown ?? true}::boolean`;
}
