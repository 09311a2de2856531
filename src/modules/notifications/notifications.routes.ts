import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  ListNotificationsQuery,
  Notification,
  NotificationInbox,
  ReadAllResult,
} from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

const tags = ['notifications'];
const audit = { entityType: 'notifications' };

/** The caller's own inbox: any signed-in user, and only their own rows (another user's row is 404). */
export const notificationsRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationsService }> = async (
  app,
  { notifications },
) => {
  app.get('/notifications', {
    schema: {
      tags,
      operationId: 'listNotifications',
      querystring: ListNotificationsQuery,
      response: { 200: NotificationInbox, ...errorResponses(401, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => notifications.list(requireActor(request), request.query),
  });

  app.patch('/notifications/:id/read', {
    schema: {
      tags,
      operationId: 'markNotificationRead',
      params: IdParams,
      response: { 200: Notification, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit },
    handler: async (request) => notifications.markRead(requireActor(request), request.params.id),
  });

  app.post('/notifications/read-all', {
    schema: {
      tags,
      operationId: 'markAllNotificationsRead',
      response: { 200: ReadAllResult, ...errorResponses(401) },
    },
    config: { auth: 'user', audit },
    handler: async (request) => notifications.markAllRead(requireActor(request)),
  });

  app.delete('/notifications/:id', {
    schema: {
      tags,
      operationId: 'deleteNotification',
      params: IdParams,
      response: { 204: { type: 'null' }, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user', audit },
    handler: async (request, reply) => {
      await notifications.remove(requireActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
};
