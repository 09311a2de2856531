import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tsz, updatedAt } from './columns.js';
import { conversations, messages } from './conversations.js';
import { chunks, documents, namespaces } from './knowledge.js';
import { departments } from './organisation.js';

export const agentTasks = pgTable(
  'agent_tasks',
  {
    id: id(),
    jobId: text('job_id').notNull(),
    namespaceId: uuid('namespace_id').references(() => namespaces.id, { onDelete: 'set null' }),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    adapterType: text('adapter_type').notNull().default('api'),
    /** The AgentRun of this task's generation (GET /traces/:trace_id). */
    traceId: text('trace_id'),
    /** queued, running, done, failed or timeout. */
    status: text('status').notNull().default('queued'),
    output: jsonb('output').$type<Record<string, unknown>>(),
    errorMessage: text('error_message'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    totalTokens: integer('total_tokens').notNull().default(0),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    /** False when the model server reported no usage: the token counts are then 0 and unknown. */
    usageKnown: boolean('usage_known').notNull().default(true),
    durationMs: integer('duration_ms'),
    startedAt: tsz('started_at'),
    finishedAt: tsz('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('agent_tasks_department_id_created_at_idx').on(t.departmentId, t.createdAt),
    // The analytics dashboard of a global user reads a created_at range over every department.
    index('agent_tasks_created_at_idx').on(t.createdAt),
    index('agent_tasks_namespace_id_idx').on(t.namespaceId),
    index('agent_tasks_status_idx').on(t.status),
    // One task per inbound message: a replayed message never starts a second task.
    uniqueIndex('agent_tasks_message_id_idx').on(t.messageId).where(sql`${t.messageId} is not null`),
    index('agent_tasks_conversation_id_created_at_idx').on(t.conversationId, t.createdAt),
    // Memory extraction counts a sender's finished tasks conversation by conversation. With only the
    // indexes above, a planner without fresh statistics (PGlite never gathers any) ANDs the status
    // index in, whose 'done' entries grow with every task: this one holds exactly the rows it reads.
    index('agent_tasks_done_conversation_idx').on(t.conversationId).where(sql`${t.status} = 'done'`),
  ],
);

export const agentToolCalls = pgTable(
  'agent_tool_calls',
  {
    id: id(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => agentTasks.id, { onDelete: 'cascade' }),
    /** inject_profile, rag_search, generate, confidence_check, or an adapter call. */
    stepName: text('step_name').notNull(),
    status: text('status').notNull(),
    inputData: jsonb('input_data').$type<unknown>(),
    outputData: jsonb('output_data').$type<unknown>(),
    durationMs: integer('duration_ms').notNull().default(0),
    errorMessage: text('error_message'),
    createdAt: createdAt(),
  },
  (t) => [index('agent_tool_calls_task_id_idx').on(t.taskId)],
);

/** One LLM call (trace): provider, model, tokens, estimated cost. */
export const agentRuns = pgTable(
  'agent_runs',
  {
    id: id(),
    traceId: text('trace_id').notNull().unique('agent_runs_trace_id_unique'),
    taskId: uuid('task_id').references(() => agentTasks.id, { onDelete: 'set null' }),
    departmentId: uuid('department_id').references(() => departments.id),
    namespaceId: uuid('namespace_id').references(() => namespaces.id, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    totalTokens: integer('total_tokens').notNull().default(0),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    /** False when the model server reported no usage (the counts are then 0). */
    usageKnown: boolean('usage_known').notNull().default(true),
    latencyMs: integer('latency_ms').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('agent_runs_task_id_idx').on(t.taskId)],
);

export const retrievalHits = pgTable(
  'retrieval_hits',
  {
    id: id(),
    runId: uuid('run_id')
      .notNull()
      .references(() => agentRuns.id, { onDelete: 'cascade' }),
    chunkId: uuid('chunk_id').references(() => chunks.id, { onDelete: 'set null' }),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    rank: integer('rank').notNull(),
    score: doublePrecision('score').notNull(),
    vectorScore: doublePrecision('vector_score'),
    keywordScore: doublePrecision('keyword_score'),
    createdAt: createdAt(),
  },
  (t) => [index('retrieval_hits_run_id_idx').on(t.runId)],
);

export const approvals = pgTable(
  'approvals',
  {
    id: id(),
    taskId: uuid('task_id').references(() => agentTasks.id, { onDelete: 'set null' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** The inbound message the reply answers. */
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    namespaceId: uuid('namespace_id').references(() => namespaces.id, { onDelete: 'set null' }),
    /** pending, approved, rejected, edited or escalated. */
    status: text('status').notNull().default('pending'),
    originalContent: text('original_content').notNull(),
    editedContent: text('edited_content'),
    reason: text('reason'),
    intent: text('intent'),
    confidence: doublePrecision('confidence').notNull().default(0),
    /** Why the reply went to a human: the HITL triggers that held, as `{ type, ...details }` objects. */
    triggers: jsonb('triggers')
      .$type<Array<{ type: string; [key: string]: unknown }>>()
      .notNull()
      .default([]),
    sources: jsonb('sources').$type<unknown[]>().notNull().default([]),
    context: jsonb('context').$type<Record<string, unknown>>().notNull().default({}),
    escalatedToId: uuid('escalated_to_id'),
    /** The role an escalation is addressed to (persona boundary: dept_head or persona.escalateToRole). */
    escalatedToRole: text('escalated_to_role'),
    decidedById: uuid('decided_by_id'),
    decidedAt: tsz('decided_at'),
    /**
     * Whether the decision counted toward the intent's trust (docs/approvals.md): null until decided
     * (and for escalations); false for a plain approval of an ungrounded draft, with `trustReason`.
     */
    trustCounted: boolean('trust_counted'),
    /** Why a decision did not count: `no_grounded_answer` or `unknown_intent`. */
    trustReason: text('trust_reason'),
    /** When the employee was told a colleague is checking (namespace `config.holdingReply`); null until then. */
    holdingReplyAt: tsz('holding_reply_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('approvals_department_id_status_idx').on(t.departmentId, t.status, t.createdAt),
    // The analytics dashboard: a created_at range of some departments, or of all of them.
    index('approvals_department_id_created_at_idx').on(t.departmentId, t.createdAt),
    index('approvals_created_at_idx').on(t.createdAt),
    // One approval per task, however often its job is replayed.
    uniqueIndex('approvals_task_id_idx').on(t.taskId).where(sql`${t.taskId} is not null`),
    // A conversation's waiting approvals, from which every decision and every approval's end sets
    // the conversation's status: without it each of them read the whole table.
    index('approvals_conversation_id_waiting_idx')
      .on(t.conversationId, t.status)
      .where(sql`${t.status} in ('pending', 'escalated')`),
  ],
);

/**
 * Approval requests sent in chat (modules/chat-approvals): one row per
 * `approval_pending` notification and channel of a recipient who turned chat
 * approvals on there. The row's id is what a button's signed token names.
 */
export const approvalChatRequests = pgTable(
  'approval_chat_requests',
  {
    id: id(),
    approvalId: uuid('approval_id')
      .notNull()
      .references(() => approvals.id, { onDelete: 'cascade' }),
    /** The notification it was made from: one request per notification and channel. */
    notificationId: uuid('notification_id').notNull(),
    userId: uuid('user_id').notNull(),
    /** chanA or chanB. */
    channel: text('channel').notNull(),
    /** The recipient's address on the channel (chat id, phone number), read when the row was made. */
    address: text('address').notNull(),
    /**
     * queued (to send), sending (taken, with `leaseUntil`), sent, invited (channel A: only the
     * template could go; sent once the approver writes), held (over the rate limit, for the digest),
     * digested, skipped (no longer decidable or no longer the recipient's), failed.
     */
    status: text('status').notNull().default('queued'),
    leaseUntil: tsz('lease_until'),
    /** The platform's id of the message sent (to edit it or answer under it). */
    platformMessageId: text('platform_message_id'),
    /** What the request waits for from its recipient: `edit` (the new text) or `reason` (a rejection's). */
    awaiting: text('awaiting'),
    awaitingUntil: tsz('awaiting_until'),
    /** The users offered when Escalate was pressed, in the order shown (a choice's token carries its index). */
    escalationChoices: jsonb('escalation_choices').$type<string[]>().notNull().default([]),
    /** The outcome shown on the copy, once the approval was decided. */
    outcome: text('outcome'),
    error: text('error'),
    sentAt: tsz('sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('approval_chat_requests_notification_channel_idx').on(t.notificationId, t.channel),
    index('approval_chat_requests_approval_id_idx').on(t.approvalId),
    index('approval_chat_requests_user_channel_idx').on(t.userId, t.channel, t.status),
    // What each pass (every 2 s) looks for: rows to send or digest, and copies still without an outcome.
    index('approval_chat_requests_open_idx')
      .on(t.status)
      .where(
        sql`${t.status} in ('queued', 'sending', 'held') or (${t.status} = 'sent' and ${t.outcome} is null)`,
      ),
  ],
);
