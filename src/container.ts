import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createChanAModule } from './channels/chan-a/chan-a.module.js';
import { createBotApi, createBotUsername } from './channels/chan-b/bot-api.js';
import { createChanBModule } from './channels/chan-b/chan-b.module.js';
import { createChannelInbox } from './channels/inbox/inbox.js';
import { createChannelDelivery } from './channels/outbound/channel-delivery.js';
import { createWebChannelModule } from './channels/web/web.module.js';
import { accessStampsFor, bindAccessStamps } from './core/auth/access-stamps.js';
import { systemActor } from './core/auth/actor.js';
import { createTokenService } from './core/auth/jwt.js';
import { PERMISSIONS } from './core/auth/permissions.js';
import { createBus } from './core/bus/index.js';
import type { Config } from './core/config/config.js';
import { type DatabaseHandle, openDatabase } from './core/db/client.js';
import { alignEmbeddingDimensions } from './core/db/embedding-dimensions.js';
import { createKeyValue } from './core/kv/index.js';
import { createProcessLocks } from './core/kv/process-locks.js';
import { createLlmProviders } from './core/llm/index.js';
import { createLlmProbe } from './core/llm/probe.js';
import { createMetrics } from './core/metrics/metrics.js';
import { addQueueDepth } from './core/metrics/scrape-gauges.js';
import type { AppModule } from './core/module.js';
import { createQueueDriver } from './core/queue/index.js';
import { createScheduler } from './core/scheduler.js';
import { createTracing } from './core/tracing/tracing.js';
import { VERSION } from './core/version.js';
import { createAdminModule } from './modules/admin/admin.module.js';
import { createAgentTasksModule } from './modules/agent-tasks/agent-tasks.module.js';
import { createAnalyticsModule } from './modules/analytics/analytics.module.js';
import { createApprovalsModule } from './modules/approvals/approvals.module.js';
import { createAuditModule } from './modules/audit/audit.module.js';
import { createAuthModule } from './modules/auth/auth.module.js';
import { createChannelIdentitiesModule } from './modules/channel-identities/channel-identities.module.js';
import { createChatApprovalsModule } from './modules/chat-approvals/chat-approvals.module.js';
import type { ApprovalChannel, ApprovalChatTransport } from './modules/chat-approvals/chat-ports.js';
import { createConsoleModule } from './modules/console/console.module.js';
import { createConversationsModule } from './modules/conversations/conversations.module.js';
import { createDepartmentsModule } from './modules/departments/departments.module.js';
import { createDocumentTemplatesModule } from './modules/document-templates/document-templates.module.js';
import { createEmployeeProfilesModule } from './modules/employee-profiles/employee-profiles.module.js';
import { createEvaluationModule } from './modules/evaluation/evaluation.module.js';
import { createFeedbackModule } from './modules/feedback/feedback.module.js';
import { createHealthModule } from './modules/health/health.module.js';
import { createIntentsModule } from './modules/intents/intents.module.js';
import { createKnowledgeModule } from './modules/knowledge/knowledge.module.js';
import { createLearningModule } from './modules/learning/learning.module.js';
import { createMeModule } from './modules/me/me.module.js';
import { createMetricsModule } from './modules/metrics/metrics.module.js';
import { createNamespacesModule } from './modules/namespaces/namespaces.module.js';
import { createNotificationsModule } from './modules/notifications/notifications.module.js';
import { createPermissionsModule } from './modules/permissions/permissions.module.js';
import { createPluginsModule } from './modules/plugins/plugins.module.js';
import { createRagModule } from './modules/rag/rag.module.js';
import { createRolesModule } from './modules/roles/roles.module.js';
import { seedSystemRoles } from './modules/roles/system-roles.js';
import { createSetupModule } from './modules/setup/setup.module.js';
import { createTracesModule } from './modules/traces/traces.module.js';
import { toActor } from './modules/users/actor-resolver.js';
import { anyAccountExists, bootstrapAdmin, createAdministrator } from './modules/users/bootstrap-admin.js';
import { createUsersModule } from './modules/users/users.module.js';
import { createOrganisationRepositories } from './organisation-repositories.js';
import { CONFIDENCE_THRESHOLD } from './pipeline/hitl-decision.js';
import { createPipelineModule } from './pipeline/pipeline.module.js';
import { createPriceTable, estimateCostUsd } from './pipeline/pricing.js';

export interface ContainerOptions {
  logger: FastifyBaseLogger;
  /** An already open database (tests pass a per-file copy); opened from the config otherwise. */
  database?: DatabaseHandle;
  /** The pipeline's sampling draw, uniform in [0, 1); Math.random unless given. */
  random?: () => number;
  /** The clock namespace plugins read (business hours); the system clock unless given. */
  now?: () => Date;
}

/**
 * Opens the drivers, migrates, builds every module in dependency order and
 * seeds what the service needs to run. Nothing here listens or consumes jobs.
 */
export async function createContainer(config: Config, options: ContainerOptions) {
  const { logger } = options;
  // Each phase is logged as it begins, so a slow first start (creating the
  // embedded database, running every migration) shows where it is.
  if (!options.database) {
    logger.info(
      { driver: config.databaseUrl ? 'postgres' : 'pglite' },
      config.databaseUrl
        ? 'start-up: opening the database'
        : embeddedDatabaseExists(config.dataDir)
          ? 'start-up: opening the embedded database'
          : 'start-up: creating the embedded database (only the first start does)',
    );
  }
  const database = options.database ?? (await openDatabase(config));
  logger.info('start-up: migrating the database');
  await database.migrate();
  const { db } = database;
  logger.info({ dimensions: config.embeddingDimensions }, 'start-up: aligning embedding dimensions');
  await alignEmbeddingDimensions(db, config.embeddingDimensions);
  const redis = { redisUrl: config.redisUrl, redisPrefix: config.redisPrefix };
  // This container's Prometheus families (core/metrics), on a registry of its own.
  const metrics = createMetrics();
  const queue = createQueueDriver(
    {
      ...redis,
      jobMaxStalls: config.jobMaxStalls,
      jobLockMs: config.jobLockMs,
      soleProcess: database.driver === 'pglite',
    },
    db,
    logger,
    (name, outcome, seconds) => metrics.jobDuration.observe({ queue: name, outcome }, seconds),
  );
  addQueueDepth(metrics, queue);
  const kv = createKeyValue(redis, db);
  // Recurring work (workers/schedules.ts registers it); only worker processes start it.
  const scheduler = createScheduler({ kv, logger });
  bindAccessStamps(db, () => accessStampsFor(db, database.driver, kv));
  const bus = createBus(redis, logger);
  const tokens = createTokenService(config.jwt.secret, config.jwt.expiresInSec);
  const llm = createLlmProviders(config, {
    observer: {
      call: (model, kind, outcome, seconds) =>
        metrics.modelCallDuration.observe({ model, kind, outcome }, seconds),
      tokens: (model, direction, count) => metrics.modelTokens.inc({ model, direction }, count),
    },
  });
  // Spans to a Langfuse-compatible service when TRACING_* keys are set; a no-op otherwise.
  const tracing = createTracing(config.tracing);
  const prices = createPriceTable(config.llmPrices?.table);

  const repositories = createOrganisationRepositories(db);
  const auth = createAuthModule({
    db,
    ...repositories,
    tokens,
    logger,
    bus,
    rateLimitPerMin: config.authRateLimitPerMin,
  });
  // The first administrator, from the setup page (setup code printed at start) or `create-admin`.
  const setup = createSetupModule({
    kv,
    tokens,
    department: config.admin.department,
    rateLimitPerMin: config.authRateLimitPerMin,
    administrators: {
      anyAccountExists: () => anyAccountExists(db),
      create: (admin, createOptions) => createAdministrator({ db, ...repositories }, admin, createOptions),
    },
  });
  const me = createMeModule({
    db,
    ...repositories,
    tokens,
    bus,
    dataDir: config.dataDir,
    decoders: config.decoders,
  });
  const audit = createAuditModule({ db, users: repositories.users });
  const departments = createDepartmentsModule({ db, departments: repositories.departments });
  const roles = createRolesModule({ db, ...repositories, bus });
  const users = createUsersModule({ db, ...repositories, bus });
  const employeeProfiles = createEmployeeProfilesModule({ db });
  const permissions = createPermissionsModule();
  const notifications = createNotificationsModule({ db, bus, kv, logger });
  const knowledge = createKnowledgeModule({
    db,
    departments: repositories.departments,
    queue,
    embeddings: llm.embeddings,
    logger,
    config,
    notifications: notifications.service,
    // The knowledge-base option syntheticQuestions asks the configured model only, never the offline responder.
    syntheticQuestions: {
      writer: llm.mode === 'configured' ? llm.chat : null,
      tracing,
      priceOf: (model, usage) => estimateCostUsd(model, usage, prices),
    },
  });
  const namespaces = createNamespacesModule({
    db,
    ...repositories,
    knowledgeBases: knowledge.repositories.bases,
  });
  const plugins = await createPluginsModule({
    db,
    driver: database.driver,
    kv,
    logger,
    namespaces: namespaces.repositories.namespaces,
    config: config.plugins,
  });
  const documentTemplates = createDocumentTemplatesModule({
    db,
    namespaces: namespaces.repositories.namespaces,
    knowledgeBases: knowledge.repositories.bases,
    documents: knowledge.documents,
    files: knowledge.files,
  });
  const rag = createRagModule({
    db,
    llm,
    departments: repositories.departments,
    searchIndex: { memoryMb: config.searchIndexMemoryMb, dimensions: config.embeddingDimensions },
  });
  const intents = createIntentsModule({
    db,
    embeddings: llm.embeddings,
    kv,
    driver: database.driver,
    // INTENT_MODEL_FALLBACK asks the configured model only, never the offline responder.
    modelFallback: config.intentModelFallback && llm.mode === 'configured' ? llm.chat : null,
  });
  // Golden questions per namespace, drafted and classified in the background: nothing sent or stored elsewhere.
  const evaluation = createEvaluationModule({
    db,
    queue,
    logger,
    ports: {
      findNamespace: (id) => namespaces.repositories.namespaces.findById(id),
      knowledgeBaseIdsOfDepartment: (departmentId) =>
        rag.repositories.rag.knowledgeBaseIdsOfDepartment(departmentId),
      knowledgeBaseOfDocument: async (documentId) =>
        (await knowledge.repositories.documents.findById(documentId))?.knowledgeBaseId ?? null,
      draft: (input) => rag.service.draft(systemActor(PERMISSIONS), input),
      classify: (namespaceId, text) => intents.classifier.classify(namespaceId, text),
      confidenceLine: CONFIDENCE_THRESHOLD,
    },
  });
  const pipeline = createPipelineModule({
    db,
    config,
    logger,
    queue,
    // PGlite admits one process, so its conversation locks need no shared store.
    locks: database.driver === 'pglite' ? createProcessLocks() : kv,
    bus,
    llm,
    retrieval: rag.retrieval,
    knowledgeBaseIdsOfDepartment: (departmentId) =>
      rag.repositories.rag.knowledgeBaseIdsOfDepartment(departmentId),
    repositories,
    intents,
    memory: employeeProfiles.memory,
    random: options.random,
    plugins: plugins.runtime,
    now: options.now,
    tracing,
    observeStep: (step, outcome, seconds) => metrics.taskStepDuration.observe({ step, outcome }, seconds),
  });
  const agentTasks = createAgentTasksModule({ db });
  // Learning from edits: the approval decision records edited replies as suggestions (docs/learning.md).
  const learning = createLearningModule({
    db,
    embeddings: llm.embeddings,
    logger,
    ports: {
      findNamespace: (id) => namespaces.repositories.namespaces.findById(id),
      knowledgeBaseIdsOfDepartment: (departmentId) =>
        rag.repositories.rag.knowledgeBaseIdsOfDepartment(departmentId),
      messageContent: async (id, tx) =>
        (await pipeline.repositories.messages.findMessage(id, tx))?.content ?? null,
      addExample: (actor, input) => intents.service.addExample(actor, input),
      upload: (actor, input) => knowledge.documents.upload(actor, input),
      receiveFile: (stream) => knowledge.files.receive(stream),
    },
  });
  const approvals = createApprovalsModule({
    db,
    kv,
    logger,
    audit: audit.service,
    release: pipeline.routing,
    recipients: pipeline.recipients,
    conversations: pipeline.repositories.conversations,
    notifications: pipeline.repositories.notifications,
    // Plugins hear of every decision; chat approvals update the copies of the request everywhere.
    onDecided: (approval) => {
      pipeline.plugins?.approvalDecided(approval);
      chatApprovals.requests.kick();
    },
    trust: intents.repositories.trust,
    // Edited approvals yield learning suggestions in the decision's transaction.
    learning: { prepare: learning.prepare, recordEdit: learning.recordEdit },
    // Built below (it needs the approvals' trust); read only when an approval detail is asked for.
    feedbackOf: (approvalId) => feedback.service.ofApproval(approvalId),
  });
  // Employees' ratings of assistant replies: the web route here, channel A and B call the service.
  const feedback = createFeedbackModule({
    db,
    recipients: pipeline.recipients,
    notifications: pipeline.repositories.notifications,
    publish: (effects) => pipeline.routing.publish(effects),
    audit: audit.service,
    trust: approvals.trust,
  });
  const traces = createTracesModule({ db });
  const admin = createAdminModule({
    queue,
    jwtSecret: config.jwt.secret,
    database,
    dataDir: config.dataDir,
    serviceVersion: VERSION,
  });
  // The autonomy analytics show each intent's trust evidence as GET /intents/trust computes it.
  const analytics = createAnalyticsModule({ db, trust: intents.trust });
  const conversations = createConversationsModule({ db });
  // The web chat: its messages enter the pipeline like any channel's (channels/web/).
  const web = createWebChannelModule({ inbound: pipeline.inbound, conversations: conversations.service });
  // The outbound machinery both channels' workers share (queue, store, message rows, failure notices).
  const channelDelivery = createChannelDelivery({
    db,
    queue,
    kv,
    notifications: notifications.service,
    approversOf: (departmentId, tx) => pipeline.recipients.withPermission(departmentId, 'canApprove', { tx }),
    logger,
    observeDelivery: (channel, outcome) => metrics.outboundDeliveries.inc({ channel, outcome }),
  });
  // Channel items are kept here before a platform is told they arrived (channels/inbox/).
  const inbox = createChannelInbox({ db, queue, logger });
  // Channel identities and link codes; the channels ask it who a sender is before the pipeline.
  const channelIdentities = createChannelIdentitiesModule({
    db,
    kv,
    users: repositories.users,
    conversations: pipeline.repositories.conversations,
    notifications: pipeline.repositories.notifications,
    audit: audit.service,
    botUsername: createBotUsername(createBotApi(config.chanB)),
  });
  // Approvals in chat: requests to opted-in approvers, decisions from their buttons (modules/chat-approvals).
  // The channels hand it their presses and implement its transports, so these are filled in below.
  const chatTransports: Partial<Record<ApprovalChannel, ApprovalChatTransport>> = {};
  const chatApprovals = createChatApprovalsModule({
    db,
    secret: config.jwt.secret,
    transports: chatTransports,
    decisions: approvals.decisions,
    actorOf: async (userId) => {
      const found = await repositories.users.findWithRole(userId);
      return found?.user.isActive ? toActor(found.user, found.role) : null;
    },
    approversOf: (departmentId) => pipeline.recipients.withPermission(departmentId, 'canApprove'),
    audit: audit.service,
    inboxLink: config.publicUrl ? `${config.publicUrl}/console/#/inbox` : null,
    logger,
  });
  const chanA = createChanAModule({
    linking: channelIdentities.linking,
    approvalChat: chatApprovals.inbound,
    feedback: feedback.service,
    onSignatureRefused: () => metrics.webhookSignaturesRefused.inc({ channel: 'chanA' }),
    db,
    kv,
    queue,
    logger,
    config,
    pipeline,
    readText: (type, bytes) => knowledge.ingestion.readText(type, bytes),
    preferencesOf: async (userId) => (await repositories.users.findProfile(userId))?.preferences ?? null,
    outbound: channelDelivery,
    inbox,
  });
  const chanB = createChanBModule({
    linking: channelIdentities.linking,
    approvalChat: chatApprovals.inbound,
    feedback: feedback.service,
    db,
    kv,
    queue,
    logger,
    config,
    pipeline,
    outbound: channelDelivery,
    inbox,
  });
  chatTransports.chanA = chanA.approvalTransport;
  chatTransports.chanB = chanB.approvalTransport;
  const health = createHealthModule({
    version: VERSION,
    startedAt: Date.now(),
    llm: config.llm.apiKey
      ? createLlmProbe({ apiKey: config.llm.apiKey, baseUrl: config.llm.baseUrl })
      : 'offline',
    logger,
    pingDatabase: () => database.ping(),
    pingQueue: () => queue.ping(),
  });
  const metricsModule = createMetricsModule({
    db,
    metrics,
    token: config.metrics.token,
    production: config.nodeEnv === 'production',
    logger,
  });
  // The areas built to the module contract (core/module.ts), in the order app.ts registers their routes.
  const modules: readonly AppModule[] = [
    health,
    metricsModule,
    auth,
    setup,
    me,
    roles,
    permissions,
    employeeProfiles,
    audit,
    rag,
    knowledge,
    namespaces,
    evaluation,
    learning,
    plugins,
    intents,
    agentTasks,
    traces,
    admin,
    analytics,
    conversations,
    feedback,
    documentTemplates,
    channelIdentities,
    chanA,
    chanB,
    web,
    createConsoleModule({ dir: config.consoleDir }),
    departments,
    users,
    approvals,
    chatApprovals,
    notifications,
  ];

  logger.info('start-up: seeding system roles');
  await seedSystemRoles(repositories.roles);
  if (config.admin.email) logger.info({ email: config.admin.email }, 'start-up: bootstrap administrator');
  await bootstrapAdmin({ db, ...repositories, logger }, config.admin);

  return {
    config,
    logger,
    database,
    db,
    queue,
    kv,
    bus,
    scheduler,
    tokens,
    llm,
    /** Span export (no-op without TRACING_* keys); `flush` sends what is buffered. */
    tracing,
    system: systemActor(PERMISSIONS),
    repositories,
    auth,
    setup,
    me,
    audit,
    departments,
    roles,
    users,
    employeeProfiles,
    permissions,
    knowledge,
    namespaces,
    plugins,
    rag,
    intents,
    evaluation,
    learning,
    pipeline,
    agentTasks,
    approvals,
    chatApprovals,
    traces,
    admin,
    analytics,
    conversations,
    feedback,
    documentTemplates,
    channelIdentities,
    chanA,
    chanB,
    web,
    /** The channels' durable inbox; its sweep is a recurring task of the worker processes. */
    inbox,
    notifications,
    health,
    /** The Prometheus families of this container (core/metrics) and the `/metrics` endpoint. */
    metrics,
    metricsModule,
    modules,
    /**
     * Stops the scheduler's timers and the queue (in-flight jobs finish, or are
     * abandoned after `queueGraceMs` when given), then the bus, key-value store and database.
     */
    async close(options: { queueGraceMs?: number } = {}): Promise<void> {
      scheduler.close();
      for (const area of modules) await area.close?.();
      await queue.close({ graceMs: options.queueGraceMs });
      await tracing.close();
      await bus.close();
      await kv.close();
      await database.close();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;

/** Whether DATA_DIR already holds an embedded database (PGlite writes PG_VERSION when it creates one). */
function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));
}
