import type { AfterCommit } from '../core/after-commit.js';
import type { Bus } from '../core/bus/bus.js';
import type { Database } from '../core/db/client.js';
import { isConnectionError } from '../core/db/connection-errors.js';
import type { DriverLogger } from '../core/logger.js';
import type { QueueDriver } from '../core/queue/queue.js';
import {
  type AgentTaskCommon,
  type AgentTaskStatus,
  type EventEnvelope,
  eventOf,
  publishEvent,
  publishEvents,
} from '../core/realtime/events.js';
import type { ApprovalsRepository } from '../modules/approvals/approvals.repository.js';
import type { MessagesRepository } from '../modules/conversations/messages.repository.js';
import { type AgentAdapter, AgentTimeoutError } from './adapters/adapter.js';
import { StepTimeoutError, withStepTimeout } from './deadline.js';
import type { PluginHooks, TaskPlugins } from './plugins-hooks.js';
import { pendingReplyJobs, type ReplyRouting, type RouteResult } from './routing.js';
import type { Checked } from './steps/confidence-check.js';
import { activeAdapterOf, type Generated } from './steps/generate.js';
import { HISTORY_TURNS, type InjectedProfile } from './steps/inject-profile.js';
import type { RagFindings } from './steps/rag-search.js';
import { round } from './steps/rag-search.js';
import type { Step, TaskContext } from './steps/step-context.js';
import type { TaskContextReader, TaskSnapshot } from './task-context.query.js';
import {
  type AgentTaskRow,
  FINISHED_STATUSES,
  type GenerationRun,
  type NewToolCall,
  type TasksRepository,
  type ToolCallRow,
} from './tasks.repository.js';

/** The four persisted steps, in order. */
export const STEP_NAMES = ['inject_profile', 'rag_search', 'generate', 'confidence_check'] as const;
export type StepName = (typeof STEP_NAMES)[number];

export interface PipelineSteps {
  injectProfile: Step<void, InjectedProfile>;
  ragSearch: Step<void, RagFindings>;
  generate: Step<{ profile: InjectedProfile; rag: RagFindings }, Generated>;
  confidenceCheck: Step<{ rag: RagFindings; generated: Generated }, Checked>;
}

interface StepsDone {
  profile: InjectedProfile;
  rag: RagFindings;
  generated: Generated;
  checked: Checked;
  /** The namespace's plugins for this task; null when it has none. */
  plugins: TaskPlugins | null;
  /** `generate` and `confidence_check` when both are done and no plugin runs: written with the decision. */
  unrecorded: Array<Ran<unknown>>;
  /** The generation's run (trace) in that case too; null when written already. */
  unwrittenRun: GenerationRun | null;
}

/** A step failed or timed out; the task ends with this status and message. */
class StepFailure extends Error {
  constructor(
    readonly status: 'failed' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

/** A step that ran: its value, or the failure that ends the task, and its tool call row to write. */
interface Ran<Out> {
  value: Out | null;
  failure: StepFailure | null;
  index: number;
  call: NewToolCall;
}

export interface RunnerDeps {
  db: Database;
  tasks: TasksRepository;
  taskContext: TaskContextReader;
  messages: Pick<MessagesRepository, 'findReplyOfTask'>;
  approvals: Pick<ApprovalsRepository, 'findOfTask'>;
  routing: ReplyRouting;
  steps: PipelineSteps;
  /** The adapters by type: which one a namespace selects is recorded on its tasks. */
  adapters: Record<string, AgentAdapter>;
  queue: QueueDriver;
  bus: Bus;
  logger: DriverLogger;
  /** AGENT_TASK_TIMEOUT_MS: the longest any one step may run. */
  timeoutMs: number;
  /** Namespace plugins at the hook points (src/pipeline/plugins-hooks.ts); none when absent. */
  plugins?: PluginHooks;
  /** Told of each step's duration and outcome (the task step metrics); none when absent. */
  observeStep?: (step: StepName, outcome: 'done' | 'failed' | 'timeout', seconds: number) => void;
}

/**
 * Runs one agent task: inject_profile → rag_search → generate →
 * confidence_check, each written as an AgentToolCall and published as
 * `agent-task.tool-call`, then the delivery decision and the task's end in
 * one statement. Safe to run again for the same task (a retried job):
 * a finished task is left alone, a task whose reply was already routed is
 * only finished, and an interrupted one starts over from its first step.
 */
export function createRunner(deps: RunnerDeps) {
  const { db, tasks, taskContext, messages, routing, steps, bus, queue, logger } = deps;

  const common = (task: AgentTaskRow, status: AgentTaskStatus): AgentTaskCommon => ({
    taskId: task.id,
    jobId: task.jobId,
    namespaceId: task.namespaceId,
    departmentId: task.departmentId,
    adapterType: task.adapterType,
    status,
  });

  /** The steps' context from the task's snapshot (see `taskContext`), or why the task cannot run. */
  function contextOf(task: AgentTaskRow, snapshot: TaskSnapshot): TaskContext | string {
    if (!task.namespaceId) return `Task ${task.id} has no namespace`;
    if (!task.conversationId || !task.messageId) return `Task ${task.id} has no conversation or message`;
    const {
      namespace,
      conversation,
      inbound,
      user,
      knowledgeBaseIds,
      knowledgeBases,
      approverRoleIds,
      profile,
      turns,
      standings,
    } = snapshot;
    if (!namespace) return `Namespace ${task.namespaceId} no longer exists`;
    if (!conversation || !inbound) return `The conversation of task ${task.id} no longer exists`;
    if (!user) return `The sender of task ${task.id} no longer exists`;
    return {
      task,
      conversation,
      inbound,
      namespace,
      user,
      departmentKnowledgeBaseIds: knowledgeBaseIds,
      departmentKnowledgeBases: knowledgeBases,
      profile,
      turns,
      standings,
      approverRoleIds,
    };
  }

  /** Ends an unfinished task as failed or timeout and publishes `agent-task.failed`. */
  async function fail(task: AgentTaskRow, status: 'failed' | 'timeout', message: string): Promise<void> {
    const finished = await tasks.finish(task.id, { status, errorMessage: message, finishedAt: new Date() });
    if (finished)
      await publishEvent(bus, 'agent-task.failed', { ...common(finished, status), errorMessage: message });
  }

  /** Runs one step under the timeout; its tool call is written by {@link record}. */
  async function runStep<In, Out>(
    context: TaskContext,
    index: number,
    step: Step<In, Out>,
    previous: In,
  ): Promise<Ran<Out>> {
    const stepName = STEP_NAMES[index]!;
    const inputData = step.input(context, previous);
    const started = performance.now();
    let outcome: { value: Out; output: Record<string, unknown> } | null = null;
    let failure: StepFailure | null = null;
    try {
      outcome = await withStepTimeout(stepName, deps.timeoutMs, (signal) =>
        step.run(context, previous, signal),
      );
    } catch (error) {
      // A lost database connection is not the step's failure: the job is tried again and resumes the task.
      if (isConnectionError(error)) throw error;
      const timedOut = error instanceof StepTimeoutError || error instanceof AgentTimeoutError;
      const reason = error instanceof Error ? error.message : String(error);
      failure = new StepFailure(timedOut ? 'timeout' : 'failed', `${stepName}: ${reason}`);
      if (!timedOut) logger.warn({ err: error, taskId: context.task.id, stepName }, 'pipeline step failed');
    }
    const elapsedMs = performance.now() - started;
    deps.observeStep?.(stepName, failure ? failure.status : 'done', elapsedMs / 1000);
    return {
      value: outcome?.value ?? null,
      failure,
      index,
      call: {
        taskId: context.task.id,
        stepName,
        status: failure ? failure.status : 'done',
        inputData,
        outputData: outcome?.output ?? null,
        durationMs: Math.round(elapsedMs),
        errorMessage: failure?.message ?? null,
      },
    };
  }

  /**
   * Writes the tool calls of steps that ran (one INSERT) and publishes them
   * in order; throws the first failure among them.
   */
  async function record(context: TaskContext, ran: Array<Ran<unknown>>): Promise<void> {
    await publishToolCalls(context, ran, await tasks.insertToolCalls(ran.map((r) => r.call)));
    const failed = ran.find((r) => r.failure);
    if (failed) throw failed.failure;
  }

  /** Publishes the committed tool call rows of steps that ran, in order. */
  async function publishToolCalls(
    context: TaskContext,
    ran: Array<Ran<unknown>>,
    rows: ToolCallRow[],
  ): Promise<void> {
    await publishEvents(bus, toolCallEvents(context.task, ran, rows));
  }

  /** `agent-task.tool-call` of each committed tool call row of steps that ran, in order. */
  function toolCallEvents(
    task: AgentTaskRow,
    ran: Array<Ran<unknown>>,
    rows: ToolCallRow[],
  ): EventEnvelope[] {
    return rows.map((row, i) => {
      const { failure, index } = ran[i]!;
      return eventOf('agent-task.tool-call', {
        ...common(task, 'running'),
        progress: (failure ? index : index + 1) / STEP_NAMES.length,
        toolCall: {
          id: row.id,
          stepName: row.stepName,
          status: row.status,
          inputData: row.inputData,
          outputData: row.outputData,
          durationMs: row.durationMs,
        },
      });
    });
  }

  /**
   * The four steps in order; a failing one throws {@link StepFailure}. The
   * first two steps' tool calls are written together once both ran (they
   * read the database and run in milliseconds), before the model is called;
   * `generate` with `confidence_check`, which takes milliseconds after it,
   * and the generation's run in the statement of the delivery decision, or
   * at once when the check fails or the namespace has plugins,
   * whose hook after the check writes its own call after them. A failing
   * step's call is written at once.
   * Each event still follows its committed row.
   */
  async function runSteps(context: TaskContext): Promise<StepsDone> {
    const profileRan = await runStep(context, 0, steps.injectProfile, undefined);
    if (profileRan.failure) await record(context, [profileRan]);
    const ragRan = await runStep(context, 1, steps.ragSearch, undefined);
    await record(context, [profileRan, ragRan]);
    const profile = profileRan.value!;
    const rag = ragRan.value!;
    const plugins = (await deps.plugins?.forTask(context)) ?? null;
    const prompted = plugins ? await plugins.beforeGenerate(profile) : profile;
    const generatedRan = await runStep(context, 2, steps.generate, { profile: prompted, rag });
    if (generatedRan.failure) await record(context, [generatedRan]);
    let generated = generatedRan.value!;
    const checkedRan = await runStep(context, 3, steps.confidenceCheck, { rag, generated });
    // A plugin's hook after the check writes its own call, which must come after the check's. The
    // task then ends without the decision's statement carrying the run, so the run is written first.
    if (checkedRan.failure || plugins) {
      await tasks.insertRun(generated.run);
      await record(context, [generatedRan, checkedRan]);
    }
    let checked = checkedRan.value!;
    if (plugins)
      ({ generated, checked } = await plugins.afterConfidenceCheck(generated, checked, profile.language));
    return {
      profile,
      rag,
      generated,
      checked,
      plugins,
      unrecorded: plugins ? [] : [generatedRan, checkedRan],
      unwrittenRun: plugins ? null : generated.run,
    };
  }

  /**
   * After the commit that finished the task: the outbound jobs; then the
   * events of that moment in one round trip (the tool calls written with the
   * decision, the notifications, the completion); then memory extraction.
   */
  async function afterDone(
    task: AgentTaskRow,
    effects: AfterCommit,
    toolCalls: EventEnvelope[] = [],
  ): Promise<void> {
    await routing.enqueue(effects);
    await publishEvents(bus, [
      ...toolCalls,
      ...routing.notificationEvents(effects),
      eventOf('agent-task.completed', {
        ...common(task, 'done'),
        output: task.output ?? {},
        durationMs: task.durationMs ?? 0,
      }),
    ]);
    await addMemoryJob(task.id);
  }

  /** Memory extraction after a finished task (its job id makes a repeat a no-op). */
  async function addMemoryJob(taskId: string): Promise<void> {
    await queue.add('memory-extraction', 'extract', { taskId }, { jobId: `memory-${taskId}` });
  }

  /** The task started by its read, with the adapter it runs with when that changed since it came in. */
  async function adaptedTo(started: AgentTaskRow, adapterType: string | undefined): Promise<AgentTaskRow> {
    if (!adapterType) return started;
    await tasks.setAdapterType(started.id, adapterType);
    return { ...started, adapterType };
  }

  /** A replayed task whose reply was routed before the crash: finish it from what was written. */
  async function finishRouted(
    task: AgentTaskRow,
    routed: RouteResult & { reply: string },
    effects: AfterCommit = { jobs: [], notifications: [] },
  ): Promise<boolean> {
    const finished = await tasks.finish(task.id, {
      status: 'done',
      output: { ...(task.output ?? {}), ...routed },
      finishedAt: new Date(),
    });
    if (finished) await afterDone(finished, effects);
    return true;
  }

  async function alreadyRouted(task: AgentTaskRow): Promise<boolean> {
    const approval = await deps.approvals.findOfTask(task.id);
    if (approval) {
      return finishRouted(task, {
        route: approval.escalatedToRole ? 'escalate' : 'hitl',
        approvalId: approval.id,
        messageId: null,
        reply: approval.originalContent,
      });
    }
    const reply = await messages.findReplyOfTask(task.id);
    if (reply) {
      return finishRouted(
        task,
        { route: 'auto_send', approvalId: null, messageId: reply.id, reply: reply.content },
        pendingReplyJobs(reply),
      );
    }
    return false;
  }

  return {
    /**
     * Runs the task to `done`, `failed` or `timeout`. Step errors end the
     * task (they are not retried); only infrastructure errors (database,
     * queue) are thrown, so that the job is retried and resumes safely.
     */
    async run(taskId: string, loaded?: TaskSnapshot): Promise<void> {
      const snapshot = loaded ?? (await taskContext.taskContext(taskId, HISTORY_TURNS));
      const found = snapshot.task;
      if (!found || (FINISHED_STATUSES as readonly string[]).includes(found.status)) return;
      const context = contextOf(found, snapshot);
      if (typeof context === 'string') return fail(found, 'failed', context);
      const adapterType = activeAdapterOf(context, deps.adapters);
      const changed = adapterType !== found.adapterType ? adapterType : undefined;

      // A task no try has started has nothing written to resume from or clean up: one UPDATE starts it,
      // or the read did (the worker's read starts a task whose turn has come).
      let task = snapshot.started
        ? await adaptedTo(snapshot.started, changed)
        : found.startedAt === null
          ? await tasks.startFirst(found.id, changed)
          : null;
      if (!task) {
        const current = found.startedAt === null ? await tasks.find(found.id) : found;
        if (!current || (FINISHED_STATUSES as readonly string[]).includes(current.status)) return;
        if (await alreadyRouted(current)) return;
        task = await db.transaction((tx) => tasks.start(current.id, tx, changed));
        if (!task) return;
      }
      context.task = task;
      await publishEvent(bus, 'agent-task.started', common(task, 'running'));

      let done: StepsDone;
      try {
        done = await runSteps(context);
      } catch (error) {
        if (error instanceof StepFailure) return fail(task, error.status, error.message);
        throw error;
      }
      const { profile, rag, generated, checked } = done;

      const decided = await routing.decide({
        task: { id: task.id, namespaceId: context.namespace.id, departmentId: task.departmentId },
        conversation: context.conversation,
        inbound: context.inbound,
        approverRoleIds: context.approverRoleIds,
        decision: checked.decision,
        reply: generated.reply,
        intent: checked.intent,
        confidence: checked.confidence,
        sources: rag.hits.map((hit) => ({
          chunkId: hit.chunkId,
          documentId: hit.documentId,
          title: hit.title,
          score: round(hit.score),
        })),
        context: {
          channel: context.conversation.channel,
          language: profile.language,
          userMessage: {
            id: context.inbound.id,
            content: context.inbound.content,
            createdAt: context.inbound.createdAt.toISOString(),
          },
          turns: profile.turns,
        },
        toolCalls: done.unrecorded.map((r) => r.call),
        run: done.unwrittenRun,
        output: {
          reply: generated.reply,
          intent: checked.intent,
          confidence: round(checked.confidence),
          reasons: checked.decision.reasons,
          language: profile.language,
          traceId: generated.traceId,
        },
      });
      // Finished meanwhile by another try: its results stand, this run's are dropped.
      if (!decided) return;
      await afterDone(
        decided.task,
        decided.effects,
        toolCallEvents(context.task, done.unrecorded, decided.toolCalls),
      );
      done.plugins?.afterDelivery(decided.task);
    },

    /**
     * A job of a task found finished ran again: its worker may have stopped
     * between the commit that finished the task and the jobs that follow
     * it. Enqueues them again, each under its own job id, so a repeat adds
     * nothing: the outbound job of a reply still `queued` and memory
     * extraction. Events are not published again (at most once; clients
     * re-read through REST).
     */
    async afterFinished(taskId: string): Promise<void> {
      const task = await tasks.find(taskId);
      if (task?.status !== 'done') return;
      const reply = await messages.findReplyOfTask(task.id);
      if (reply) await routing.enqueue(pendingReplyJobs(reply));
      await addMemoryJob(task.id);
    },

    /**
     * The job's last try failed (or its worker died during it): ends the
     * task `failed` when it is not finished yet.
     */
    async failAfterRetries(taskId: string, error: Error): Promise<void> {
      const task = await tasks.find(taskId);
      if (!task || (FINISHED_STATUSES as readonly string[]).includes(task.status)) return;
      await fail(task, 'failed', `The task could not be run: ${error.message}`);
    },
  };
}

export type Runner = ReturnType<typeof createRunner>;
