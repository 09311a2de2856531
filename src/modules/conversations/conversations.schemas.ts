import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

export const CONVERSATION_CHANNELS = ['web', 'chanA', 'chanB', 'email'] as const;
export const CONVERSATION_STATUSES = ['open', 'awaiting_approval', 'escalated', 'closed'] as const;
/** Longest web chat message, in characters. */
export const WEB_MESSAGE_MAX_CHARS = 4000;

const Channel = (description: string) =>
  Type.Union([Type.Literal('web'), Type.Literal('chanA'), Type.Literal('chanB'), Type.Literal('email')], {
    description,
  });
const Status = (description: string) =>
  Type.Union(
    [
      Type.Literal('open'),
      Type.Literal('awaiting_approval'),
      Type.Literal('escalated'),
      Type.Literal('closed'),
    ],
    { description },
  );

export const Conversation = Type.Object({
  id: Uuid('Conversation id'),
  channel: Channel('web, chanA, chanB or email'),
  channelUserId: Nullable(Type.String({ description: 'The sender on the platform (phone number, user id)' })),
  userId: Uuid('Employee the conversation is with'),
  userName: Nullable(Type.String({ description: 'Name of that employee' })),
  departmentId: Uuid('Department of the conversation'),
  namespaceId: Nullable(Uuid('Namespace whose assistant answers')),
  status: Status('open, awaiting_approval, escalated or closed'),
  lastMessageAt: Nullable(DateTime('When the last message came in')),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ListConversationsQuery = Type.Object(
  {
    departmentId: Type.Optional(Uuid('Only this department (one of yours)')),
    channel: Type.Optional(Channel('Only conversations on this channel')),
    status: Type.Optional(Status('Only conversations in this status')),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const ConversationPage = OffsetPage(Conversation);

const MessageFields = {
  id: Uuid('Message id'),
  conversationId: Uuid('Conversation of the message'),
  direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')], {
    description: 'inbound (from the employee) or outbound (from the assistant or a person)',
  }),
  content: Type.String({ description: 'Text of the message' }),
  status: Nullable(
    Type.String({ description: 'Outbound only: queued, sent, delivered, read or failed; null for inbound' }),
  ),
  taskId: Nullable(Uuid('Agent task that answered (inbound) or produced (outbound) the message')),
  createdAt: DateTime(),
};

export const Message = Type.Object({
  ...MessageFields,
  channel: Channel('Channel of the message'),
  approvalId: Nullable(Uuid('Approval that released an outbound reply')),
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'What the channel reported with it' }),
});

export const WebMessage = Type.Object({
  ...MessageFields,
  clientMessageId: Nullable(Type.String({ description: 'The id the client sent with an inbound message' })),
});

const Cursor = Type.Optional(Uuid('Id of the last message of the previous page'));
const CursorLimit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)' }),
);

export const MessagesQuery = Type.Object(
  { cursor: Cursor, limit: CursorLimit },
  { additionalProperties: false },
);

const NextCursor = Nullable(Uuid('Cursor of the next page; null on the last page'));
export const MessagePage = Type.Object({
  items: Type.Array(Message, { description: 'Messages, newest first' }),
  nextCursor: NextCursor,
});
export const WebMessagePage = Type.Object({
  items: Type.Array(WebMessage, { description: 'Messages, newest first' }),
  nextCursor: NextCursor,
});

export const SendWebMessageBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: WEB_MESSAGE_MAX_CHARS,
      pattern: '\\S',
      description: 'What you ask the assistant (1-4000 characters, not only spaces)',
    }),
    clientMessageId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z0-9._:-]+$',
        description: 'Your id for the message: sending it again answers the first message and runs nothing',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SentWebMessage = Type.Object({
  messageId: Uuid('The stored inbound message'),
  conversationId: Uuid('Your web conversation'),
  taskId: Nullable(Uuid('Agent task that answers the message')),
});
