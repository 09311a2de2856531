import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../core/http/schemas.js';

export const IntentAnalyticsQuery = Type.Object(
  {
    namespaceId: Uuid('Namespace of one of your departments'),
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 90, description: 'Window length in days up to now (default 30)' }),
    ),
  },
  { additionalProperties: false },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Minutes = (description: string) => Nullable(Type.Number({ minimum: 0, description }));

const IntentDay = Type.Object({
  date: Type.String({ format: 'date', description: 'UTC day' }),
  messages: Count('Messages of the intent that day'),
  autoSent: Count('Replies of the intent sent without a human that day'),
  decisions: Count('Approvals of the intent created that day and no longer pending'),
});

const IntentTrustFigures = Type.Object(
  {
    isAutonomous: Type.Boolean({ description: 'Whether replies of the intent go out without a human' }),
    mode: Type.Union([Type.Literal('count'), Type.Literal('confidence')], {
      description: 'Trust mode of the namespace: count or confidence',
    }),
    successfulCount: Count('Counted clean approvals so far'),
    threshold: Count('Clean approvals the count mode needs'),
    lowerBound: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Wilson lower bound of the clean-approval rate; null when nothing was counted',
      }),
    ),
    neededForPromotion: Count('Clean approvals in a row that would make the intent autonomous now'),
  },
  { description: 'The intent’s trust evidence; null when the intent has no trust record' },
);

const Evaluation = Type.Object(
  {
    runId: Uuid('Evaluation run'),
    correct: Count('Cases answered correctly'),
    total: Count('Cases in the run'),
    at: DateTime('When the run finished'),
  },
  { description: 'The namespace’s latest completed evaluation run; null when there is none' },
);

const IntentFigures = Type.Object({
  intent: Type.String({ description: 'Classified intent' }),
  messages: Count('Inbound messages whose task classified the intent'),
  autoSent: Count('Replies of the intent sent without a human'),
  hitl: Count('Replies of the intent that went to a human (approvals created)'),
  reasons: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: 'Approvals per HITL trigger type, e.g. low_confidence',
  }),
  decisions: Type.Object(
    {
      approved: Count('Approvals approved'),
      edited: Count('Approvals approved with edits'),
      rejected: Count('Approvals rejected'),
      escalated: Count('Approvals escalated'),
    },
    { description: 'Approvals of the intent by outcome' },
  ),
  minutesToDecision: Type.Object(
    {
      p50: Minutes('Median minutes from approval creation to decision; null without decisions'),
      p90: Minutes('90th percentile of minutes from approval creation to decision; null without decisions'),
    },
    { description: 'How long the intent’s replies waited for a human' },
  ),
  feedback: Type.Object(
    { up: Count('Up ratings of the intent’s replies'), down: Count('Down ratings of the intent’s replies') },
    { description: 'Employees’ ratings of the intent’s replies' },
  ),
  trust: Nullable(IntentTrustFigures),
  minutesSaved: Type.Number({
    minimum: 0,
    description: 'Replies sent without a human times the namespace’s minutes per reply',
  }),
  evaluation: Nullable(Evaluation),
  daily: Type.Array(IntentDay, {
    description: 'Messages, replies without a human and decisions per UTC day',
  }),
});

export const IntentAnalytics = Type.Object({
  namespaceId: Uuid('Namespace the figures are of'),
  days: Type.Integer({ minimum: 1, maximum: 90, description: 'Window length in days' }),
  from: DateTime('Window start'),
  to: DateTime('Window end'),
  intents: Type.Array(IntentFigures, { description: 'Each intent, most messages first' }),
});
