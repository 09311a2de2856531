import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import { QueueBoardSession } from './admin.schemas.js';
import { type AdminService, QUEUE_BOARD_COOKIE, QUEUE_BOARD_PATH } from './admin.service.js';

export const adminRoutes: FastifyPluginAsyncTypebox<{ admin: AdminService }> = async (app, { admin }) => {
  app.post('/admin/queues/session', {
    schema: {
      tags: ['admin'],
      operationId: 'openQueueBoardSession',
      response: { 200: QueueBoardSession, ...errorResponses(401, 403) },
    },
    config: { auth: 'user', permission: 'canEditSettings', audit: { entityType: 'queue-board' } },
    handler: async (request, reply) => {
      const session = admin.openQueueBoardSession(requireActor(request));
      // HttpOnly: page scripts never see it; SameSite=Strict: no other site's page sends it;
      // Path: only the dashboard receives it.
      const attributes = [
        `${QUEUE_BOARD_COOKIE}=${session.token}`,
        `Path=${QUEUE_BOARD_PATH}`,
        `Max-Age=${session.maxAgeSec}`,
        'HttpOnly',
        'SameSite=Strict',
        ...(request.protocol === 'https' ? ['Secure'] : []),
      ];
      reply.header('set-cookie', attributes.join('; '));
      return { path: QUEUE_BOARD_PATH, expiresAt: session.expiresAt };
    },
  });
};
