import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

export const SuggestionType = Type.Union([Type.Literal('example'), Type.Literal('answer')], {
  description:
    'example (the question as an example of its intent) or answer (the question with the edited reply)',
});

export const SuggestionStatus = Type.Union(
  [Type.Literal('open'), Type.Literal('accepted'), Type.Literal('dismissed')],
  { description: 'open, accepted or dismissed' },
);

export const SuggestionParams = Type.Object({ id: Uuid('Learning suggestion') });

export const ListSuggestionsQuery = Type.Object(
  {
    namespaceId: Uuid('Namespace whose suggestions are listed'),
    type: Type.Optional(SuggestionType),
    status: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('accepted'), Type.Literal('dismissed')], {
        default: 'open',
        description: 'Only suggestions in this status (default open: the queue still to review)',
      }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const AcceptSuggestionBody = Type.Object(
  {
    knowledgeBaseId: Type.Optional(
      Uuid(
        'Knowledge base an answer suggestion is written to; required for answers, one the namespace searches',
      ),
    ),
  },
  { additionalProperties: false },
);

export const Suggestion = Type.Object({
  id: Uuid('Learning suggestion'),
  namespaceId: Uuid('Namespace the edited approvals belong to'),
  type: SuggestionType,
  status: SuggestionStatus,
  intent: Nullable(Type.String({ description: 'The approvals’ intent (the intent an example is for)' })),
  question: Type.String({ description: 'The employee’s question as first asked' }),
  answer: Nullable(Type.String({ description: 'answer only: the approved edited text of the latest edit' })),
  count: Type.Integer({ description: 'Edited approvals folded into the suggestion' }),
  approvalIds: Type.Array(Uuid('Edited approval'), {
    description: 'The edited approvals folded into it, oldest first',
  }),
  knowledgeBaseId: Nullable(Uuid('Knowledge base an accepted answer was written to')),
  documentId: Nullable(Uuid('Document an accepted answer was written as')),
  decidedById: Nullable(Uuid('User who accepted or dismissed it')),
  decidedAt: Nullable(DateTime('When it was accepted or dismissed')),
  createdAt: DateTime(),
  updatedAt: DateTime('When it was last folded or decided'),
});

export const SuggestionPage = OffsetPage(Suggestion);
