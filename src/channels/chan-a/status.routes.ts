import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/http/schemas.js';
import { ChanAStatusResponse } from './status.schemas.js';
import type { ChanAStatusService } from './status.service.js';

export const chanAStatusRoutes: FastifyPluginAsyncTypebox<{ status: ChanAStatusService }> = async (
  app,
  { status },
) => {
  app.get('/chanA/status', {
    schema: {
      tags: ['channels'],
      operationId: 'getChanAStatus',
      response: { 200: ChanAStatusResponse, ...errorResponses(401, 403) },
    },
    config: { auth: 'user', permission: 'canEditSettings' },
    handler: async () => status.get(),
  });
};
