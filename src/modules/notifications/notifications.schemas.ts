import { Type } from 'typebox';
import { DateTime, Nullable, PaginationQuery, Uuid } from '../../core/http/schemas.js';

export const Notification = Type.Object({
  id: Uuid('Notification id'),
  userId: Uuid('The recipient: always you'),
  type: Type.String({
    description: 'Set by the producer: approval_pending, assistant_reply, document_ready, mention or system',
  }),
  title: Type.String({ description: 'Short label' }),
  body: Nullable(Type.String({ description: 'Longer text, when the producer gave one' })),
  entityType: Nullable(
    Type.String({ description: 'Kind of the linked record: approval, message, document, …' }),
  ),
  entityId: Nullable(Type.String({ description: 'Id of the linked record' })),
  readAt: Nullable(DateTime('When it was first marked read; null while unread')),
  createdAt: DateTime(),
});

export const ListNotificationsQuery = Type.Object(
  {
    unreadOnly: Type.Optional(
      Type.Boolean({ default: false, description: 'Only notifications not yet read' }),
    ),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const NotificationInbox = Type.Object({
  items: Type.Array(Notification, { description: 'The rows of this page, newest first' }),
  pagination: Type.Object(
    {
      total: Type.Integer({ description: 'Rows matching the filters' }),
      limit: Type.Integer({ description: 'Rows on one page' }),
      offset: Type.Integer({ description: 'Rows skipped before this page' }),
    },
    { description: 'Where this page lies in the filtered list' },
  ),
  unreadCount: Type.Integer({ description: 'Your unread notifications, whatever the filter and page' }),
});

export const ReadAllResult = Type.Object({
  updated: Type.Integer({ description: 'Notifications that were unread and are now read' }),
});
