import type { Bus } from '../core/bus/bus.js';
import { publishEvent } from '../core/realtime/events.js';
import type {
  ActivePlugin,
  AfterConfidenceCheckResult,
  ApprovalDecidedEvent,
  BeforeGenerateResult,
  PluginContext,
  PluginEvent,
  PluginHookName,
  PluginLogger,
} from '../modules/plugins/plugin.js';
import { StepTimeoutError, withStepTimeout } from './deadline.js';
import type { Decision } from './hitl-decision.js';
import type { Checked } from './steps/confidence-check.js';
import type { Generated } from './steps/generate.js';
import type { InjectedProfile } from './steps/inject-profile.js';
import type { TaskContext } from './steps/step-context.js';
import type { AgentTaskRow, NewToolCall, TasksRepository } from './tasks.repository.js';

/** The steps a task's progress counts (the four pipeline steps). */
const STEPS = 4;

/**
 * after_delivery hooks run apart from the task (it has finished), so they
 * may take longer than the pipeline's hooks: this many plugin time limits
 * (30 s by default), room for a webhook's retries.
 */
export const AFTER_DELIVERY_TIMEOUT_FACTOR = 6;

/** What the plugins module gives the pipeline: a namespace's enabled plugins, cached. */
export interface PluginsPort {
  enabledFor(namespaceId: string): Promise<ActivePlugin[]>;
}

export interface PluginHooksDeps {
  plugins: PluginsPort;
  tasks: Pick<TasksRepository, 'insertToolCalls'>;
  bus: Bus;
  logger: PluginLogger;
  /** PLUGIN_TIMEOUT_MS: the longest one hook of one plugin may run in the pipeline. */
  timeoutMs: number;
  /** The clock plugins read (`context.now`). */
  now: () => Date;
}

/** The fields of a decided approval the `approval.decided` event carries. */
export interface DecidedApproval {
  id: string;
  taskId: string | null;
  namespaceId: string | null;
  departmentId: string;
  status: string;
  decidedById: string | null;
  originalContent: string;
  editedContent: string | null;
  reason: string | null;
  decidedAt: Date | null;
}

/** One plugin call: its result (null when it failed) and its tool call row. */
interface Call<R> {
  result: R | null;
  row: NewToolCall;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs the plugins of a namespace at the pipeline's three hook points. Each
 * call of a plugin is an AgentToolCall `plugin:<id>` of the task (input,
 * output, duration); a plugin that throws or runs past its time limit is a
 * failed tool call whose result is ignored, and the task goes on. The
 * after-delivery hooks run detached from the task, so a slow webhook never
 * holds it.
 */
export function createPluginHooks(deps: PluginHooksDeps) {
  const { tasks, bus, logger } = deps;

  function pluginLogger(pluginId: string): PluginLogger {
    return {
      info: (object, message) => logger.info({ ...object, pluginId }, message),
      warn: (object, message) => logger.warn({ ...object, pluginId }, message),
      error: (object, message) => logger.error({ ...object, pluginId }, message),
    };
  }

  /** Calls one hook of one plugin under the time limit; never throws. */
  async function call<R>(
    plugin: ActivePlugin,
    hook: PluginHookName,
    scope: { taskId: string | null; namespaceId: string; departmentId: string },
    inputData: Record<string, unknown>,
    timeoutMs: number,
    invoke: (context: PluginContext) => unknown,
  ): Promise<Call<R>> {
    const stepName = `plugin:${plugin.definition.id}`;
    const started = performance.now();
    let result: R | null = null;
    let errorMessage: string | null = null;
    try {
      const answered = await withStepTimeout(stepName, timeoutMs, async (signal) =>
        invoke({
          config: plugin.config,
          namespace: { id: scope.namespaceId, departmentId: scope.departmentId },
          taskId: scope.taskId,
          now: deps.now,
          signal,
          logger: pluginLogger(plugin.definition.id),
        }),
      );
      result = (answered ?? {}) as R;
    } catch (error) {
      errorMessage =
        error instanceof StepTimeoutError
          ? `${stepName} (${hook}) did not finish within ${timeoutMs} ms`
          : `${stepName} (${hook}): ${describe(error)}`;
      logger.warn(
        { pluginId: plugin.definition.id, hook, taskId: scope.taskId, reason: errorMessage },
        'plugin failed',
      );
    }
    return {
      result,
      row: {
        taskId: scope.taskId ?? '',
        stepName,
        status: errorMessage ? 'failed' : 'done',
        inputData: { hook, ...inputData },
        outputData: result === null ? null : (result as Record<string, unknown>),
        durationMs: Math.round(performance.now() - started),
        errorMessage,
      },
    };
  }

  /** Writes the calls of one hook point (one INSERT) and publishes them as `agent-task.tool-call`. */
  async function record(task: AgentTaskRow | null, calls: Array<Call<unknown>>, progress: number) {
    if (calls.length === 0) return;
    const rows = await tasks.insertToolCalls(calls.map((c) => c.row));
    if (!task) return;
    for (const row of rows) {
      await publishEvent(bus, 'agent-task.tool-call', {
        taskId: task.id,
        jobId: task.jobId,
        namespaceId: task.namespaceId,
        departmentId: task.departmentId,
        adapterType: task.adapterType,
        status: 'running',
        progress,
        toolCall: {
          id: row.id,
          stepName: row.stepName,
          status: row.status,
          inputData: row.inputData,
          outputData: row.outputData,
          durationMs: row.durationMs,
        },
      });
    }
  }

  /** Runs every after_delivery hook for `event`, detached; tool calls go to `event`'s task when it has one. */
  function deliver(active: ActivePlugin[], event: PluginEvent, taskId: string | null): void {
    const withHook = active.filter((p) => p.definition.hooks.after_delivery);
    if (withHook.length === 0) return;
    const scope = { taskId, namespaceId: event.namespaceId, departmentId: event.departmentId };
    const timeoutMs = deps.timeoutMs * AFTER_DELIVERY_TIMEOUT_FACTOR;
    const work = Promise.all(
      withHook.map(async (plugin) => {
        const done = await call(
          plugin,
          'after_delivery',
          scope,
          { event: event.type },
          timeoutMs,
          (context) => plugin.definition.hooks.after_delivery!(context, { event }),
        );
        if (taskId) await tasks.insertToolCalls([done.row]);
      }),
    );
    work.catch((error: unknown) =>
      logger.error(
        { reason: describe(error), event: event.type },
        'plugins: after_delivery could not be recorded',
      ),
    );
  }

  return {
    /**
     * The task's plugins, read once per task (from the cache: no database
     * round trip for a namespace already seen); null when the namespace has none.
     */
    async forTask(context: TaskContext) {
      const active = await deps.plugins.enabledFor(context.namespace.id);
      if (active.length === 0) return null;
      const scope = {
        taskId: context.task.id,
        namespaceId: context.namespace.id,
        departmentId: context.namespace.departmentId,
      };
      const message = (language: string) => ({
        text: context.inbound.content,
        channel: context.conversation.channel,
        language,
      });

      return {
        /** before_generate: answers the profile with the plugins' instructions and context added to the system prompt. */
        async beforeGenerate(profile: InjectedProfile): Promise<InjectedProfile> {
          const calls: Array<Call<BeforeGenerateResult>> = [];
          for (const plugin of active) {
            const hook = plugin.definition.hooks.before_generate;
            if (!hook) continue;
            calls.push(
              await call<BeforeGenerateResult>(plugin, 'before_generate', scope, {}, deps.timeoutMs, (c) =>
                hook(c, { message: message(profile.language) }),
              ),
            );
          }
          await record(context.task, calls, 2 / STEPS);
          const additions = calls.flatMap(({ result }) =>
            [result?.instructions, result?.context].filter(
              (text): text is string => typeof text === 'string' && text.trim() !== '',
            ),
          );
          if (additions.length === 0) return profile;
          return {
            ...profile,
            systemPrompt: [profile.systemPrompt, ...additions].filter(Boolean).join('\n\n'),
          };
        },

        /**
         * after_confidence_check: each plugin in turn may replace the reply,
         * send it to a human with a reason, or send it without review.
         */
        async afterConfidenceCheck(
          generated: Generated,
          checked: Checked,
          language: string,
        ): Promise<{ generated: Generated; checked: Checked }> {
          let reply = generated.reply;
          let decision: Decision = checked.decision;
          const calls: Array<Call<AfterConfidenceCheckResult>> = [];
          for (const plugin of active) {
            const hook = plugin.definition.hooks.after_confidence_check;
            if (!hook) continue;
            const input = {
              message: message(language),
              reply,
              intent: checked.intent,
              confidence: checked.confidence,
              decision: { route: decision.route, reasons: decision.reasons },
            };
            const done = await call<AfterConfidenceCheckResult>(
              plugin,
              'after_confidence_check',
              scope,
              { route: decision.route },
              deps.timeoutMs,
              (c) => hook(c, input),
            );
            calls.push(done);
            const result = done.result;
            if (!result) continue;
            if (typeof result.reply === 'string' && result.reply.trim() !== '') reply = result.reply;
            if (result.send === true && decision.route !== 'escalate') {
              decision = { route: 'auto_send', reasons: [], draw: decision.draw };
            }
            if (typeof result.hitl === 'string' && result.hitl.trim() !== '') {
              decision = {
                route: decision.route === 'auto_send' ? 'hitl' : decision.route,
                reasons: [
                  ...decision.reasons,
                  { type: 'plugin', pluginId: plugin.definition.id, reason: result.hitl },
                ],
                draw: decision.draw,
              };
            }
          }
          await record(context.task, calls, 1);
          return { generated: { ...generated, reply }, checked: { ...checked, decision } };
        },

        /** after_delivery: the task's reply was routed; its plugins hear of it, detached from the task. */
        afterDelivery(task: AgentTaskRow): void {
          const output = (task.output ?? {}) as Record<string, unknown>;
          const event: PluginEvent = {
            type: 'task.routed',
            taskId: task.id,
            namespaceId: scope.namespaceId,
            departmentId: task.departmentId,
            route: (output.route as Decision['route']) ?? 'hitl',
            approvalId: (output.approvalId as string | null) ?? null,
            messageId: (output.messageId as string | null) ?? null,
            intent: (output.intent as string | null) ?? null,
            confidence: typeof output.confidence === 'number' ? output.confidence : null,
            reply: (output.reply as string | null) ?? null,
            occurredAt: (task.finishedAt ?? deps.now()).toISOString(),
          };
          deliver(active, event, task.id);
        },
      };
    },

    /**
     * An approval was decided (called after its transaction committed): the
     * namespace's after_delivery plugins hear of it, detached from the request.
     */
    approvalDecided(approval: DecidedApproval): void {
      if (!approval.namespaceId) return;
      const delivered = approval.status === 'approved' || approval.status === 'edited';
      const event: ApprovalDecidedEvent = {
        type: 'approval.decided',
        approvalId: approval.id,
        taskId: approval.taskId,
        namespaceId: approval.namespaceId,
        departmentId: approval.departmentId,
        status: approval.status,
        decidedById: approval.decidedById,
        content: delivered ? (approval.editedContent ?? approval.originalContent) : null,
        reason: approval.reason,
        occurredAt: (approval.decidedAt ?? deps.now()).toISOString(),
      };
      deps.plugins
        .enabledFor(event.namespaceId)
        .then((active) => deliver(active, event, event.taskId))
        .catch((error: unknown) =>
          logger.error(
            { reason: describe(error), approvalId: event.approvalId },
            'plugins: approval event lost',
          ),
        );
    },
  };
}

export type PluginHooks = ReturnType<typeof createPluginHooks>;
export type TaskPlugins = NonNullable<Awaited<ReturnType<PluginHooks['forTask']>>>;
