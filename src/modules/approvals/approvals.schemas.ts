import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';
import { ReplyFeedbackEntry } from '../feedback/feedback.schemas.js';

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'edited', 'escalated'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** The most decisions one batch request may carry. */
export const MAX_BATCH_DECISIONS = 50;

const StatusOf = (description: string) =>
  Type.Union(
    [
      Type.Literal('pending'),
      Type.Literal('approved'),
      Type.Literal('rejected'),
      Type.Literal('edited'),
      Type.Literal('escalated'),
    ],
    { description },
  );
const Status = StatusOf('pending, approved, rejected, edited or escalated');

const EditedContent = Type.String({
  minLength: 1,
  maxLength: 16_000,
  pattern: '\\S',
  description: 'The reply to send instead of the original (1-16000 characters, not only spaces)',
});

const Reason = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'Why, in a few words (kept with the approval and in the audit log)',
});

const Trigger = Type.Object(
  { type: Type.String({ description: 'Reason type, for example low_confidence or first_interaction' }) },
  { additionalProperties: true, description: 'One HITL reason with its details' },
);

export const Approval = Type.Object({
  id: Uuid('Approval id'),
  status: Status,
  departmentId: Uuid('Department of the conversation'),
  namespaceId: Nullable(Uuid('Namespace whose assistant wrote the reply')),
  conversationId: Uuid('Conversation the reply belongs to'),
  taskId: Nullable(Uuid('Agent task that wrote the reply')),
  messageId: Nullable(Uuid('The inbound message the reply answers')),
  channel: Type.String({ description: 'web, chanA, chanB or email' }),
  sender: Type.Object(
    { id: Uuid('Employee who asked'), name: Type.String({ description: 'Name of that employee' }) },
    { description: 'The employee the reply is for' },
  ),
  question: Nullable(
    Type.String({ description: "The employee's message the reply answers; null when there is none" }),
  ),
  originalContent: Type.String({ description: 'The reply as the assistant wrote it' }),
  editedContent: Nullable(Type.String({ description: 'The reply as the approver edited it' })),
  reason: Nullable(Type.String({ description: 'Reason given with a rejection or an escalation' })),
  intent: Nullable(Type.String({ description: 'Classified intent of the message' })),
  confidence: Type.Number({ description: 'Retrieval confidence, from 0 to 1' }),
  reasons: Type.Array(Trigger, { description: 'Every HITL reason that held' }),
  escalatedToId: Nullable(Uuid('User the approval is escalated to')),
  escalatedToRole: Nullable(Type.String({ description: 'Role the approval is escalated to' })),
  decidedById: Nullable(Uuid('Who approved, edited or rejected it')),
  decidedAt: Nullable(DateTime('When it was decided')),
  trust: Nullable(
    Type.Object(
      {
        counted: Type.Boolean({ description: "Whether the decision counted toward the intent's trust" }),
        reason: Type.Optional(
          Type.Union([Type.Literal('no_grounded_answer'), Type.Literal('unknown_intent')], {
            description: 'Why it did not count',
          }),
        ),
      },
      { description: 'What the decision did to trust; null until decided, and for escalations' },
    ),
  ),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

const Source = Type.Object({
  chunkId: Uuid('Retrieved chunk'),
  documentId: Uuid('Document of the chunk'),
  title: Type.String({ description: 'Title of the document' }),
  score: Type.Number({ description: 'Blended retrieval score, from 0 to 1' }),
  content: Nullable(Type.String({ description: 'Text of the chunk; null when it was deleted since' })),
});

const HistoryEntry = Type.Object({
  action: Type.String({ description: 'approve, reject or escalate' }),
  userId: Nullable(Uuid('Who acted; null for the system (deadline escalation)')),
  userName: Nullable(Type.String({ description: 'Name of that user' })),
  changes: Type.Unknown({ description: 'What was sent with the decision: edited text, reason, target' }),
  createdAt: DateTime('When it happened'),
});

export const ApprovalDetail = Type.Object({
  ...Approval.properties,
  sources: Type.Array(Source, { description: 'The knowledge the reply was written from' }),
  context: Type.Record(Type.String(), Type.Unknown(), {
    description: 'channel, language, userMessage and the conversation turns before it',
  }),
  history: Type.Array(HistoryEntry, { description: 'Decisions on this approval, oldest first' }),
  feedback: Type.Array(ReplyFeedbackEntry, {
    description: 'How employees rated the reply this approval released; empty when nobody did',
  }),
});

export const ListApprovalsQuery = Type.Object(
  {
    status: Type.Optional(StatusOf('Only approvals in this status (default pending)')),
    departmentId: Type.Optional(Uuid('Only this department (one of yours)')),
    namespaceId: Type.Optional(Uuid('Only this namespace')),
    intent: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only this intent' })),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[a-z_]+$',
        description: 'Only approvals with this HITL reason type, for example low_confidence',
      }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const ApprovalPage = OffsetPage(Approval);

export const ApproveBody = Type.Object(
  { editedContent: Type.Optional(EditedContent) },
  { additionalProperties: false },
);

export const RejectBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });

export const EscalateBody = Type.Object(
  {
    escalatedToId: Uuid('Active user, not you, who may approve in the conversation department'),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);

export const BatchBody = Type.Object(
  {
    decisions: Type.Array(
      Type.Object(
        {
          approvalId: Uuid('Approval to decide'),
          action: Type.Union([Type.Literal('approve'), Type.Literal('reject')], {
            description: 'approve or reject',
          }),
          editedContent: Type.Optional(EditedContent),
          reason: Type.Optional(Reason),
        },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: MAX_BATCH_DECISIONS,
        description: 'Decisions, each processed on its own (1-50)',
      },
    ),
  },
  { additionalProperties: false },
);

export const BatchResult = Type.Object({
  results: Type.Array(
    Type.Object({
      approvalId: Uuid('Approval decided'),
      status: Type.Union([Type.Literal('success'), Type.Literal('error')], {
        description: 'success, or error with the error name and message',
      }),
      error: Type.Optional(Type.String({ description: 'Error class name, for example ConflictError' })),
      message: Type.Optional(Type.String({ description: 'What went wrong, for people' })),
    }),
    { description: 'One result per decision, in the order sent' },
  ),
});
