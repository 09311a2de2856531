import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../core/bus/bus.js';
import { createWorkLimit } from '../core/concurrency/work-limit.js';
import type { Config } from '../core/config/config.js';
import type { Database } from '../core/db/client.js';
import type { LockStore } from '../core/kv/process-locks.js';
import type { LlmProviders } from '../core/llm/llm.js';
import type { QueueDriver } from '../core/queue/queue.js';
import type { RecurringTask } from '../core/scheduler.js';
import type { Tracing } from '../core/tracing/tracing.js';
import { createApprovalsRepository } from '../modules/approvals/approvals.repository.js';
import { createConversationsRepository } from '../modules/conversations/conversations.repository.js';
import { createMessagesRepository } from '../modules/conversations/messages.repository.js';
import type { DepartmentsRepository } from '../modules/departments/departments.repository.js';
import type { ProfileMemoryService } from '../modules/employee-profiles/memory.service.js';
import { createNotificationsRepository } from '../modules/notifications/notifications.repository.js';
import { createRecipients } from '../modules/notifications/recipients.js';
import { createRecipientsRepository } from '../modules/notifications/recipients.repository.js';
import type { Retrieval } from '../modules/rag/retrieval.js';
import type { RolesRepository } from '../modules/roles/roles.repository.js';
import type { UsersRepository } from '../modules/users/users.repository.js';
import { createAdapters } from './adapters/index.js';
import { createDecisionRepository } from './decision.repository.js';
import { createIdleConversations } from './idle-conversations.js';
import { createInboundRepository } from './inbound.repository.js';
import { createInboundService } from './inbound.service.js';
import { createLostJobs } from './lost-jobs.js';
import { createConversationOrder } from './ordering.js';
import { startAgentTaskWorker, startMemoryWorker } from './pipeline.jobs.js';
import { createPluginHooks, type PluginsPort } from './plugins-hooks.js';
import { createPriceTable } from './pricing.js';
import { createReplyRouting } from './routing.js';
import { createRunner, type RunnerDeps } from './runner.js';
import { createSenderResolver } from './senders.js';
import { createSendersRepository } from './senders.repository.js';
import { createConfidenceCheckStep, type IntentsPort } from './steps/confidence-check.js';
import { createGenerateStep } from './steps/generate.js';
import { createInjectProfileStep, HISTORY_TURNS } from './steps/inject-profile.js';
import { createRagSearchStep } from './steps/rag-search.js';
import { createTaskContextReader } from './task-context.query.js';
import { createTasksRepository } from './tasks.repository.js';

export interface PipelineDeps {
  db: Database;
  config: Config;
  logger: FastifyBaseLogger;
  queue: QueueDriver;
  /** Where the conversation locks live: the key-value store, or this process on the embedded database. */
  locks: LockStore;
  bus: Bus;
  llm: LlmProviders;
  retrieval: Retrieval;
  knowledgeBaseIdsOfDepartment: (departmentId: string) => Promise<string[]>;
  repositories: { users: UsersRepository; roles: RolesRepository; departments: DepartmentsRepository };
  intents: IntentsPort;
  memory: ProfileMemoryService;
  /** The sampling draw of the delivery decision: uniform in [0, 1). */
  random?: () => number;
  /** Namespace plugins (the plugins module's runtime); no hooks run without it. */
  plugins?: PluginsPort;
  /** The clock plugins read; the system clock unless given. */
  now?: () => Date;
  /** Spans of the model call, the search and the classification (core/tracing); none unless given. */
  tracing?: Tracing;
  /** Told of each pipeline step's duration and outcome (the task step metrics); none unless given. */
  observeStep?: RunnerDeps['observeStep'];
}

/** The assistant pipeline: inbound service, runner with its four steps, reply routing, and their workers. */
export function createPipelineModule(deps: PipelineDeps) {
  const { db, config, logger, queue, locks, bus, repositories } = deps;
  const conversations = createConversationsRepository(db);
  const messages = createMessagesRepository(db);
  const tasks = createTasksRepository(db);
  const taskContext = createTaskContextReader(db);
  const approvals = createApprovalsRepository(db);
  const notifications = createNotificationsRepository(db);
  const recipients = createRecipients(createRecipientsRepository(db));
  const routing = createReplyRouting({
    messages,
    recipients,
    decisions: createDecisionRepository(db),
    queue,
    bus,
  });
  const sendersRows = createSendersRepository(db);
  const senders = createSenderResolver({
    db,
    senders: sendersRows,
    departments: repositories.departments,
    roles: repositories.roles,
    channelDefaultDepartment: config.channelDefaultDepartment,
    bootstrapDepartment: config.admin.department,
  });
  const inbound = createInboundService({
    rows: createInboundRepository(db),
    messages,
    tasks,
    senders,
    queue,
    bus,
  });
  const adapters = createAdapters({ chat: deps.llm.chat, config, logger });
  const timeoutMs = config.agentTaskTimeoutMs;
  // Tasks in flight mostly wait on the model (AGENT_TASK_CONCURRENCY); their CPU-bound steps share this.
  const cpu = createWorkLimit(config.agentTaskCpuConcurrency);
  const steps = {
    injectProfile: createInjectProfileStep({
      messages,
      profiles: { findProfile: (id) => repositories.users.findProfile(id) },
    }),
    ragSearch: createRagSearchStep({
      retrieval: deps.retrieval,
      embeddings: deps.llm.embeddings,
      cpu,
      knowledgeBaseIdsOfDepartment: deps.knowledgeBaseIdsOfDepartment,
      tracing: deps.tracing,
    }),
    generate: createGenerateStep({
      adapters,
      timeoutMs,
      prices: createPriceTable(config.llmPrices?.table),
      tracing: deps.tracing,
    }),
    confidenceCheck: createConfidenceCheckStep({
      embeddings: deps.llm.embeddings,
      cpu,
      intents: deps.intents,
      tracing: deps.tracing,
      triggerWords: config.intentTriggerWords,
      random: deps.random ?? Math.random,
    }),
  };
  const pluginHooks = deps.plugins
    ? createPluginHooks({
        plugins: deps.plugins,
        tasks,
        bus,
        logger,
        timeoutMs: config.plugins.timeoutMs,
        now: deps.now ?? (() => new Date()),
      })
    : undefined;
  const runner = createRunner({
    plugins: pluginHooks,
    db,
    tasks,
    taskContext,
    messages,
    approvals,
    routing,
    steps,
    adapters,
    queue,
    bus,
    logger,
    timeoutMs,
    observeStep: deps.observeStep,
  });
  const order = createConversationOrder({
    locks,
    read: (taskId, options) => taskContext.taskContext(taskId, HISTORY_TURNS, options),
    logger,
  });
  const idle = createIdleConversations({
    conversations,
    queue,
    idleHours: config.conversationIdleCloseHours,
  });
  const lostJobs = createLostJobs({ db, queue, routing, failTask: runner.failAfterRetries });
  const workerDeps = {
    queue,
    runner,
    order,
    idle,
    memory: deps.memory,
    logger,
    concurrency: config.agentTaskConcurrency,
    timeoutMs,
  };
  return {
    inbound,
    runner,
    /** Where decided replies go (pipeline/routing.ts); approvals and channels reuse it. */
    routing,
    /** Who approvals, escalations and notices of a department go to. */
    recipients,
    idle,
    /** The minute's re-enqueue of tasks and replies whose job was lost (a recurring task of worker processes). */
    lostJobs,
    /** The pipeline's recurring tasks (workers/schedules.ts): the idle close and the lost jobs' sweep. */
    recurring: [
      // Adds the slot's close job on agent-tasks (its id dedupes the slot once more).
      { name: idle.name, everyMs: idle.everyMs, run: (slotStart: number) => idle.schedule(slotStart) },
      // Adds again the job of a task or reply left queued without one (its process stopped after the commit).
      {
        name: lostJobs.name,
        everyMs: lostJobs.everyMs,
        run: (slotStart: number) => lostJobs.requeue(slotStart),
      },
    ] satisfies RecurringTask[],
    /** Plugin hooks; the approvals flow reports decisions through `approvalDecided`. */
    plugins: pluginHooks,
    /** Channel sender → user; channel adapters that store a message without a task use it too. */
    senders,
    repositories: { conversations, messages, tasks, senders: sendersRows, notifications },
    /** Queue consumers of worker processes: `agent-tasks` (which runs the scheduled idle close) and `memory-extraction`. */
    workers: {
      agentTasks: () => startAgentTaskWorker(workerDeps),
      memoryExtraction: () => startMemoryWorker(workerDeps),
    },
  };
}

export type PipelineModule = ReturnType<typeof createPipelineModule>;
