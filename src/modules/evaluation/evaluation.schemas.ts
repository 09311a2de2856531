import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

/** A question is as long as an employee's message may be (the web chat's and `/rag/draft`'s limit). */
export const EVAL_QUESTION_MAX_CHARS = 4000;
/** An expected answer is a phrase or a fact, not a document. */
export const EVAL_EXPECTED_ANSWER_MAX_CHARS = 2000;
/** As long as an intent name may be. */
export const EVAL_INTENT_MAX_CHARS = 100;
/** Cases a namespace keeps at most: a run evaluates all of them in one background job. */
export const EVAL_CASES_PER_NAMESPACE = 500;
/** Top sources a case result lists. */
export const EVAL_RESULT_SOURCES = 3;

export const EvalRunStatus = Type.Union(
  [Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')],
  { description: 'queued, running, completed or failed' },
);

export const NamespaceParams = Type.Object({ id: Uuid('Namespace') });
export const EvalCaseParams = Type.Object({ id: Uuid('Namespace'), caseId: Uuid('Evaluation case') });
export const EvalRunParams = Type.Object({ id: Uuid('Namespace'), runId: Uuid('Evaluation run') });

export const CreateEvalCaseBody = Type.Object(
  {
    question: Type.String({
      minLength: 1,
      maxLength: EVAL_QUESTION_MAX_CHARS,
      pattern: '\\S',
      description: 'The question as an employee would ask it',
    }),
    expectedAnswer: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: EVAL_EXPECTED_ANSWER_MAX_CHARS,
        pattern: '\\S',
        description: 'A phrase a correct draft contains (case and spacing ignored)',
      }),
    ),
    expectedDocumentId: Type.Optional(
      Uuid('Document whose passage should rank first; a document of a knowledge base the namespace searches'),
    ),
    expectedIntent: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: EVAL_INTENT_MAX_CHARS,
        pattern: '\\S',
        description: 'Intent the classifier should answer',
      }),
    ),
  },
  { additionalProperties: false },
);

export const EvalCase = Type.Object({
  id: Uuid('Evaluation case'),
  namespaceId: Uuid('Namespace'),
  question: Type.String({ description: 'The question as an employee would ask it' }),
  expectedAnswer: Nullable(Type.String({ description: 'A phrase a correct draft contains' })),
  expectedDocumentId: Nullable(Uuid('Document whose passage should rank first')),
  expectedIntent: Nullable(Type.String({ description: 'Intent the classifier should answer' })),
  createdBy: Nullable(Uuid('User who added the case')),
  createdAt: DateTime(),
});

export const EvalCasePage = OffsetPage(EvalCase);

export const ListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });

const Rate = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1, description }));

export const EvalTotals = Type.Object({
  cases: Type.Integer({ description: 'Cases evaluated' }),
  correct: Type.Integer({ description: 'Cases answered correctly' }),
  accuracy: Rate('correct / cases; null without cases'),
  withExpectedDocument: Type.Integer({ description: 'Cases that name an expected document' }),
  top1SourceAccuracy: Rate('Share of those whose top source is the expected document; null when none'),
  withExpectedIntent: Type.Integer({ description: 'Cases that name an expected intent' }),
  intentAccuracy: Rate('Share of those whose predicted intent is the expected one; null when none'),
  fallbacks: Type.Integer({ description: 'Cases whose draft stayed under the confidence line' }),
  errors: Type.Integer({ description: 'Cases that could not be evaluated (a model call failed)' }),
});

export const EvalSource = Type.Object({
  documentId: Uuid('Document of the passage'),
  title: Type.String({ description: 'Document title' }),
  score: Type.Number({ description: 'The passage score in [0, 1]' }),
});

export const EvalCaseResult = Type.Object({
  caseId: Uuid('Evaluation case'),
  question: Type.String({ description: 'The question as an employee would ask it' }),
  expectedAnswer: Nullable(Type.String({ description: 'A phrase a correct draft contains' })),
  expectedDocumentId: Nullable(Uuid('Document whose passage should rank first')),
  expectedIntent: Nullable(Type.String({ description: 'Intent the classifier should answer' })),
  draft: Type.String({ description: 'The drafted reply (never sent)' }),
  confidence: Type.Number({ description: 'The draft confidence in [0, 1]' }),
  sources: Type.Array(EvalSource, { description: 'The best sources, best first (at most 3)' }),
  predictedIntent: Type.String({ description: 'The intent the classifier answered (unknown when none)' }),
  intentConfidence: Type.Number({ description: 'The classifier confidence in [0, 1]' }),
  fallback: Type.Boolean({ description: 'The draft stayed under the confidence line (0.7)' }),
  answerMatches: Nullable(
    Type.Boolean({ description: 'The draft holds the expected answer; null when none' }),
  ),
  topSourceMatches: Nullable(
    Type.Boolean({ description: 'The top source is the expected document; null when none' }),
  ),
  documentCited: Nullable(
    Type.Boolean({ description: 'The expected document is among the draft sources; null when none' }),
  ),
  intentMatches: Nullable(
    Type.Boolean({ description: 'The predicted intent is the expected one; null when none' }),
  ),
  correct: Type.Boolean({
    description: 'Every expectation of the case holds and the draft is not a fallback',
  }),
  error: Nullable(Type.String({ description: 'Why the case could not be evaluated' })),
});

const evalRunFields = {
  id: Uuid('Evaluation run'),
  namespaceId: Uuid('Namespace'),
  status: EvalRunStatus,
  caseCount: Type.Integer({ description: 'Cases the run evaluates' }),
  processed: Type.Integer({ description: 'Cases evaluated so far' }),
  totals: Nullable(EvalTotals),
  error: Nullable(Type.String({ description: 'Why the run failed' })),
  requestedBy: Nullable(Uuid('User who started the run')),
  createdAt: DateTime(),
  startedAt: Nullable(DateTime()),
  finishedAt: Nullable(DateTime()),
};

export const EvalRunSummary = Type.Object(evalRunFields);

export const EvalRun = Type.Object({
  ...evalRunFields,
  results: Type.Array(EvalCaseResult, {
    description: 'Per-case results, in case order; empty until completed',
  }),
});

export const EvalRunPage = OffsetPage(EvalRunSummary);
