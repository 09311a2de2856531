import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';
import { AGENT_ADAPTERS } from './agent-adapters.js';

export const Persona = Type.Object(
  {
    language: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 35,
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
        description: 'Language the assistant answers in, as a BCP 47 tag (uk, ru, en-GB)',
      }),
    ),
    style: Type.Optional(
      Type.Object(
        {
          formality: Type.Optional(
            Type.Number({ minimum: 0, maximum: 1, description: 'From 0 (casual) to 1 (formal)' }),
          ),
          tone: Type.Optional(Type.String({ maxLength: 200, description: 'Free description of the tone' })),
        },
        { additionalProperties: false },
      ),
    ),
    boundaries: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
        maxItems: 50,
        description: 'Topics the assistant must not handle; a message on one is escalated',
      }),
    ),
    escalateToRole: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Slug of the role boundary escalations go to (an existing role; default dept_head)',
      }),
    ),
  },
  { additionalProperties: false, description: 'How the assistant speaks and what it refuses' },
);

/** One language's holding reply text (`config.holdingReply.text`). */
const HoldingText = (description: string) => Type.String({ minLength: 1, maxLength: 500, description });

export const NamespaceConfig = Type.Object(
  {
    agentRunner: Type.Optional(
      Type.Object(
        {
          activeAdapter: Type.Union(
            AGENT_ADAPTERS.map((a) => Type.Literal(a)),
            { description: `Adapter that runs the pipeline: ${AGENT_ADAPTERS.join(', ')}` },
          ),
        },
        { additionalProperties: false },
      ),
    ),
    knowledgeBaseIds: Type.Optional(
      Type.Array(Uuid('Knowledge base of the namespace department'), {
        maxItems: 50,
        uniqueItems: true,
        description:
          "Knowledge bases the assistant searches; unset means every base of the namespace's department",
      }),
    ),
    trust: Type.Optional(
      Type.Object(
        {
          demoteAfter: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 1000,
              description:
                'Rejections or edits in a row after which an autonomous intent loses its autonomy; unset never demotes',
            }),
          ),
          policy: Type.Optional(
            Type.Object(
              {
                mode: Type.Optional(
                  Type.Union([Type.Literal('count'), Type.Literal('confidence')], {
                    description:
                      'count (default): autonomy when the grounded plain approvals reach the threshold; confidence: when the lower bound of the clean-approval rate reaches targetRate',
                  }),
                ),
                window: Type.Optional(
                  Type.Integer({
                    minimum: 5,
                    maximum: 1000,
                    description: 'Counted decisions the confidence mode looks back over (default 50)',
                  }),
                ),
                targetRate: Type.Optional(
                  Type.Number({
                    minimum: 0.5,
                    maximum: 0.99,
                    description: 'Clean-approval rate the lower bound must reach for autonomy (default 0.85)',
                  }),
                ),
                confidenceLevel: Type.Optional(
                  Type.Number({
                    minimum: 0.5,
                    maximum: 0.999,
                    description: 'One-sided confidence of the Wilson lower bound (default 0.95)',
                  }),
                ),
                margin: Type.Optional(
                  Type.Number({
                    minimum: 0,
                    maximum: 0.5,
                    description:
                      'Autonomy is taken away when the bound falls below targetRate − margin (default 0.05)',
                  }),
                ),
              },
              {
                additionalProperties: false,
                description: 'How intents of this namespace earn and keep autonomy',
              },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    analytics: Type.Optional(
      Type.Object(
        {
          minutesPerReply: Type.Optional(
            Type.Number({
              minimum: 0,
              maximum: 600,
              description:
                'Minutes of an employee’s time one reply sent without a human saves (GET /analytics/intents); default 3',
            }),
          ),
        },
        { additionalProperties: false, description: 'How the autonomy analytics value the replies' },
      ),
    ),
    approvalSlaMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 525_600,
        description:
          'Minutes a reply may wait for approval before it is escalated to the department heads; unset never escalates',
      }),
    ),
    holdingReply: Type.Optional(
      Type.Union(
        [
          Type.Object(
            {
              afterMinutes: Type.Integer({
                minimum: 1,
                maximum: 1440,
                description:
                  'Minutes a reply waits for approval before the employee is told a colleague is checking it',
              }),
              expectMinutes: Type.Optional(
                Type.Integer({
                  minimum: 1,
                  maximum: 10_080,
                  description:
                    'The wait the message promises, in minutes ({minutes}); unset uses approvalSlaMinutes',
                }),
              ),
              text: Type.Optional(
                Type.Object(
                  {
                    en: Type.Optional(HoldingText('The message in English')),
                    uk: Type.Optional(HoldingText('The message in Ukrainian')),
                    ru: Type.Optional(HoldingText('The message in Russian')),
                  },
                  {
                    additionalProperties: false,
                    description:
                      'The message per language, {minutes} standing for the promised wait; a language left out uses the default text',
                  },
                ),
              ),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        {
          description:
            'A message sent once to the employee while their reply waits for approval; null or unset sends none',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Name shown to users' });
const SystemPrompt = Nullable(
  Type.String({
    maxLength: 20_000,
    description: 'Instructions given to the model before every conversation',
  }),
);

export const Namespace = Type.Object({
  id: Uuid('Namespace id'),
  name: Type.String(),
  departmentId: Uuid('Department that owns the namespace'),
  systemPrompt: Nullable(Type.String()),
  persona: Type.Record(Type.String(), Type.Unknown(), {
    description: 'language, style.formality, boundaries, escalateToRole',
  }),
  config: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'agentRunner.activeAdapter, knowledgeBaseIds, trust, analytics, approvalSlaMinutes, holdingReply',
  }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const CreateNamespaceBody = Type.Object(
  {
    name: Name,
    departmentId: Uuid('Department that will own the namespace (one of yours)'),
    systemPrompt: Type.Optional(SystemPrompt),
    persona: Type.Optional(Persona),
    config: Type.Optional(NamespaceConfig),
  },
  { additionalProperties: false },
);

export const UpdateNamespaceBody = Type.Object(
  {
    name: Type.Optional(Name),
    systemPrompt: Type.Optional(SystemPrompt),
    persona: Type.Optional(Persona),
    config: Type.Optional(NamespaceConfig),
  },
  { additionalProperties: false },
);

export const ListNamespacesQuery = Type.Object(
  { departmentId: Type.Optional(Uuid('Only this department (one of yours)')), ...PaginationQuery },
  { additionalProperties: false },
);

export const NamespacePage = OffsetPage(Namespace);
