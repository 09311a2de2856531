import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../core/http/schemas.js';

export const DashboardQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 90, description: 'Window length in days up to now (default 30)' }),
    ),
    departmentId: Type.Optional(Uuid('Only this department (one of yours)')),
    from: Type.Optional(DateTime('Window start; overrides days')),
    to: Type.Optional(DateTime('Window end (default now)')),
  },
  { additionalProperties: false },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Ms = (description: string) => Nullable(Type.Number({ minimum: 0, description }));

const TaskCounts = Type.Object(
  {
    queued: Count('Tasks queued'),
    running: Count('Tasks running'),
    done: Count('Tasks done'),
    failed: Count('Tasks failed'),
    timeout: Count('Tasks timed out'),
  },
  { description: 'Tasks by status' },
);
const ApprovalCounts = Type.Object(
  {
    pending: Count('Approvals pending'),
    approved: Count('Approvals approved'),
    edited: Count('Approvals approved with edits'),
    rejected: Count('Approvals rejected'),
    escalated: Count('Approvals escalated'),
  },
  { description: 'Approvals by outcome' },
);
const ReasonCount = Type.Object({
  reason: Type.String({ description: 'HITL trigger type, e.g. low_confidence' }),
  count: Count('How many times'),
});
const IntentCount = Type.Object({
  intent: Type.String({ description: 'Classified intent' }),
  count: Count('How many times'),
});
const AvgDuration = Ms('Mean task duration in milliseconds; null without finished tasks');
const P95Duration = Ms('95th percentile of task duration in milliseconds; null without finished tasks');
const MedianDecision = Ms(
  'Median time from approval creation to decision in milliseconds; null without decisions',
);
const AutonomyRate = Nullable(
  Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'Replies sent without a human over all replies; null without replies',
  }),
);

const Day = Type.Object({
  date: Type.String({ format: 'date', description: 'UTC day' }),
  messagesIn: Count('Inbound messages'),
  messagesOut: Count('Outbound messages'),
  tasks: Type.Object(
    { total: Count('Tasks created'), ...TaskCounts.properties },
    { description: 'Tasks by status' },
  ),
  avgDurationMs: AvgDuration,
  p95DurationMs: P95Duration,
  totalTokens: Count('Prompt and completion tokens together'),
  costUsd: Type.Number({ minimum: 0, description: 'Estimated cost in US dollars' }),
  approvals: Type.Object(
    { total: Count('Approvals created'), ...ApprovalCounts.properties },
    { description: 'Approvals by outcome' },
  ),
  medianDecisionMs: MedianDecision,
  replies: Count('Replies sent by the assistant'),
  autonomousReplies: Count('Replies sent without a human'),
  autonomyRate: AutonomyRate,
  hitlReasons: Type.Array(ReasonCount, { description: 'Why replies went to a human, most frequent first' }),
  intents: Type.Array(IntentCount, { description: 'Counts of the top intents, most frequent first' }),
});

export const Dashboard = Type.Object({
  window: Type.Object(
    {
      from: DateTime('Window start'),
      to: DateTime('Window end'),
      departmentId: Nullable(Uuid('Only this department (one of yours)')),
    },
    { description: 'What the figures cover: created in [from, to)' },
  ),
  messages: Type.Object(
    {
      inbound: Count('Inbound messages'),
      outbound: Count('Outbound messages'),
      byChannel: Type.Array(
        Type.Object({
          channel: Type.String({ description: 'web, chanA, chanB or email' }),
          inbound: Count('Inbound messages'),
          outbound: Count('Outbound messages'),
        }),
        { description: 'Messages per channel' },
      ),
    },
    { description: 'Messages in and out' },
  ),
  tasks: Type.Object(
    {
      total: Count('Tasks created'),
      byStatus: TaskCounts,
      avgDurationMs: AvgDuration,
      p95DurationMs: P95Duration,
    },
    { description: 'Agent tasks' },
  ),
  usage: Type.Object(
    {
      inputTokens: Count('Prompt tokens of the generation'),
      outputTokens: Count('Completion tokens of the generation'),
      totalTokens: Count('Prompt and completion tokens together'),
      costUsd: Type.Number({ minimum: 0, description: 'Estimated cost in US dollars' }),
    },
    { description: 'Tokens and cost of the tasks' },
  ),
  approvals: Type.Object(
    {
      total: Count('Approvals created'),
      byStatus: ApprovalCounts,
      decided: Count('Approvals decided'),
      medianDecisionMs: MedianDecision,
    },
    { description: 'Human-in-the-loop approvals' },
  ),
  autonomy: Type.Object(
    {
      replies: Count('Replies sent by the assistant'),
      autonomousReplies: Count('Replies sent without a human'),
      rate: AutonomyRate,
    },
    { description: 'How often the assistant answered on its own' },
  ),
  hitlReasons: Type.Array(ReasonCount, { description: 'Why replies went to a human, most frequent first' }),
  topIntents: Type.Array(IntentCount, { description: 'The ten most frequent intents' }),
  series: Type.Array(Day, { description: 'The same figures per UTC day, oldest first' }),
});
