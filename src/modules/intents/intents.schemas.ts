import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

/** Longest intent name, counted after trimming. */
export const INTENT_NAME_MAX = 100;
/** Longest example phrase, counted after trimming. */
export const EXAMPLE_TEXT_MAX = 2000;
/** Longest text `POST /intents/classify` accepts. */
export const CLASSIFY_TEXT_MAX = 4000;

const NamespaceId = Uuid('Namespace the intents belong to (of one of your departments)');

// The raw bounds leave room for surrounding spaces; the service checks the trimmed length.
const IntentNameInput = Type.String({
  minLength: 1,
  maxLength: INTENT_NAME_MAX + 50,
  description: 'Intent name; trimmed, then 1 to 100 characters, case kept; "unknown" is reserved',
});
const PhraseInput = (description: string) =>
  Type.String({ minLength: 1, maxLength: EXAMPLE_TEXT_MAX + 50, description });

export const IntentExample = Type.Object({
  id: Uuid('Example id'),
  namespaceId: Uuid('Namespace of the example'),
  intentName: Type.String({ description: 'Intent the phrase is an example of' }),
  exampleText: Type.String({ description: 'The phrase' }),
  createdAt: DateTime(),
});

export const CreateIntentExampleBody = Type.Object(
  {
    namespaceId: NamespaceId,
    intentName: IntentNameInput,
    exampleText: Type.Optional(
      PhraseInput('The phrase; trimmed, then 1 to 2000 characters. Required unless phrase is given'),
    ),
    phrase: Type.Optional(
      PhraseInput('Another name for exampleText; when both are given they must be the same text'),
    ),
  },
  { additionalProperties: false },
);

export const ListIntentExamplesQuery = Type.Object(
  {
    namespaceId: NamespaceId,
    intentName: Type.Optional(
      Type.String({ minLength: 1, maxLength: INTENT_NAME_MAX + 50, description: 'Only this intent' }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const IntentExamplePage = OffsetPage(IntentExample);

export const IntentSummary = Type.Object({
  intentName: Type.String({ description: 'Intent name' }),
  exampleCount: Type.Integer({ description: 'Example phrases stored for the intent' }),
});

export const ListIntentsQuery = Type.Object(
  { namespaceId: NamespaceId, ...PaginationQuery },
  { additionalProperties: false },
);

export const IntentSummaryPage = OffsetPage(IntentSummary);

export const ClassifyIntentBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: CLASSIFY_TEXT_MAX,
      description: 'The message to classify',
    }),
    namespaceId: NamespaceId,
  },
  { additionalProperties: false },
);

const IntentScore = Type.Object({
  intent: Type.String({ description: 'Intent name' }),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'From 0 to 1' }),
});

export const Classification = Type.Object({
  intent: Type.String({ description: 'The best intent, or "unknown" when its confidence is below 0.5' }),
  confidence: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'Confidence of the best intent (also when the answer is "unknown"); 0 without examples',
  }),
  alternatives: Type.Array(IntentScore, {
    description: 'The other intents among the nearest examples, best first',
  }),
});

export const IntentTrust = Type.Object({
  id: Uuid('Trust record id'),
  namespaceId: Uuid('Namespace of the intent'),
  intentName: Type.String({ description: 'Intent name' }),
  successfulCount: Type.Integer({ description: 'Plain approvals of replies for this intent so far' }),
  threshold: Type.Integer({ description: 'Approvals needed for autonomy' }),
  isAutonomous: Type.Boolean({ description: 'Replies may be sent without a human, subject to samplingRate' }),
  samplingRate: Type.Number({ description: 'Fraction of autonomous replies still sent to a human' }),
  mode: Type.Optional(
    Type.Union([Type.Literal('count'), Type.Literal('confidence')], {
      description: "The namespace's trust mode (config.trust.policy.mode)",
    }),
  ),
  evidence: Type.Optional(
    Nullable(
      Type.Object(
        {
          counted: Type.Integer({
            description: 'Counted decisions considered (confidence mode: the last `window`; count mode: all)',
          }),
          cleanApprovals: Type.Integer({ description: 'Plain approvals of grounded drafts among them' }),
          edits: Type.Integer({ description: 'Approvals with edits among them' }),
          rejections: Type.Integer({
            description: 'Rejections among them (confidence mode: also "down" ratings of auto-sent replies)',
          }),
          notCounted: Type.Integer({ description: 'Plain approvals of ungrounded drafts, never counted' }),
          lowerBound: Nullable(
            Type.Number({
              description: 'Wilson lower bound of the clean-approval rate; null before any decision',
            }),
          ),
          neededForPromotion: Type.Integer({
            description: 'Clean approvals in a row that would make the intent autonomous now; 0 when it is',
          }),
        },
        { description: 'What the trust rests on (docs/approvals.md)' },
      ),
    ),
  ),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ListIntentTrustQuery = Type.Object(
  { namespaceId: NamespaceId, ...PaginationQuery },
  { additionalProperties: false },
);

export const IntentTrustPage = OffsetPage(IntentTrust);

export const UpdateIntentTrustBody = Type.Object(
  {
    samplingRate: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Fraction of autonomous replies still sent to a human, 0 to 1',
      }),
    ),
    threshold: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'Approvals needed for autonomy, 1 to 1000' }),
    ),
  },
  { additionalProperties: false },
);
