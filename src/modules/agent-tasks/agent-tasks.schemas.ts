import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

/** AgentTask status values. */
export const AGENT_TASK_STATUSES = ['queued', 'running', 'done', 'failed', 'timeout'] as const;
export type AgentTaskStatusValue = (typeof AGENT_TASK_STATUSES)[number];

const statusUnion = (description: string) =>
  Type.Union(
    [
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('done'),
      Type.Literal('failed'),
      Type.Literal('timeout'),
    ],
    { description },
  );
const Status = statusUnion('queued, running, done, failed or timeout');

const AdapterType = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Adapter that processed the task: api or a local runner',
});

export const AgentTask = Type.Object({
  id: Uuid('Task id'),
  jobId: Type.String({ description: 'Id of the queue job that runs the task' }),
  namespaceId: Nullable(Uuid('Namespace whose assistant answered; null when none was configured')),
  departmentId: Uuid('Department the conversation belongs to'),
  conversationId: Nullable(Uuid('Conversation of the inbound message')),
  messageId: Nullable(Uuid('The inbound message the task answers')),
  adapterType: AdapterType,
  status: Status,
  traceId: Nullable(Type.String({ description: 'Trace of the generation (GET /traces/{trace_id})' })),
  errorMessage: Nullable(Type.String({ description: 'Why the task failed or timed out' })),
  inputTokens: Type.Integer({ description: 'Prompt tokens of the generation' }),
  outputTokens: Type.Integer({ description: 'Completion tokens of the generation' }),
  totalTokens: Type.Integer({ description: 'Prompt and completion tokens together' }),
  costUsd: Type.Number({ description: 'Estimated cost in US dollars' }),
  usageKnown: Type.Boolean({
    description:
      'False when the model server reported no token usage: the token counts and the cost are then 0 because they are unknown',
  }),
  durationMs: Nullable(
    Type.Integer({ description: 'End-to-end processing time in milliseconds; null until finished' }),
  ),
  startedAt: Nullable(DateTime('When a worker picked the task up')),
  finishedAt: Nullable(DateTime('When the task finished')),
  createdAt: DateTime(),
  updatedAt: DateTime(),
  messageText: Nullable(
    Type.String({
      description:
        'Text of the inbound message, cut to 500 characters; null when the task has none, or for a caller who is not its sender and holds neither canApprove nor canViewAllUsers',
    }),
  ),
  channel: Nullable(
    Type.String({ description: 'Channel of the conversation: web, chanA, chanB or email; null when none' }),
  ),
  sender: Nullable(
    Type.Object(
      {
        id: Uuid('Employee who sent the message'),
        name: Type.String({ description: 'Name of that employee' }),
      },
      {
        description:
          'The employee whose message the task answers; null when the task has no conversation, or hidden as messageText is',
      },
    ),
  ),
});

export const ToolCall = Type.Object({
  id: Uuid('Tool call id'),
  stepName: Type.String({
    description: 'inject_profile, rag_search, generate, confidence_check, or an adapter call',
  }),
  status: Type.String({ description: 'done, failed or timeout' }),
  inputData: Type.Unknown({
    description: 'What the step was given; null for a caller who may not read the task’s message',
  }),
  outputData: Type.Unknown({
    description:
      'What the step produced; null when it failed or for a caller who may not read the task’s message',
  }),
  durationMs: Type.Integer({ description: 'How long the step ran, in milliseconds' }),
  errorMessage: Nullable(Type.String({ description: 'Why the step failed' })),
  createdAt: DateTime(),
});

export const AgentTaskDetail = Type.Object({
  ...AgentTask.properties,
  output: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'Result of a finished task: reply, route, intent, confidence, approval or message id',
    }),
  ),
  toolCalls: Type.Array(ToolCall, { description: 'The persisted pipeline steps, in step order' }),
});

/** Filters shared by the list and the statistics. */
const CommonFilters = {
  namespaceId: Type.Optional(Uuid('Only tasks of this namespace')),
  departmentId: Type.Optional(Uuid('Only tasks of this department (one of yours)')),
  adapterType: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Only tasks of this adapter' }),
  ),
  from: Type.Optional(DateTime('Tasks created at or after this time')),
  to: Type.Optional(DateTime('Tasks created before this time')),
};

export const ListAgentTasksQuery = Type.Object(
  {
    ...CommonFilters,
    status: Type.Optional(statusUnion('Only tasks in this status')),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const AgentTaskStatsQuery = Type.Object(CommonFilters, { additionalProperties: false });

export const AgentTaskPage = OffsetPage(AgentTask);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const AgentTaskStats = Type.Object({
  stats: Type.Array(
    Type.Object({
      adapterType: AdapterType,
      namespaceId: Nullable(Uuid('Namespace of the group; null for tasks without one')),
      total: Count('Tasks in the group'),
      successRate: Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Share of finished tasks that ended done (0 when none finished)',
      }),
      avgDurationMs: Nullable(
        Type.Number({ description: 'Mean duration of finished tasks in milliseconds; null when none' }),
      ),
      avgCostUsd: Nullable(
        Type.Number({ description: 'Mean estimated cost of finished tasks in US dollars; null when none' }),
      ),
      byStatus: Type.Object(
        {
          queued: Count('Tasks waiting for a worker'),
          running: Count('Tasks being processed'),
          done: Count('Tasks that finished with a reply'),
          failed: Count('Tasks that failed'),
          timeout: Count('Tasks that timed out'),
        },
        { description: 'Tasks of the group per status' },
      ),
    }),
    { description: 'One entry per adapter and namespace, the busiest first' },
  ),
});
