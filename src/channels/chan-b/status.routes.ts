import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/http/schemas.js';
import { ChanBStatusResponse } from './status.schemas.js';
import type { ChanBStatusService } from './status.service.js';

export const chanBStatusRoutes: FastifyPluginAsyncTypebox<{ status: ChanBStatusService }> = async (
  app,
  { status },
) => {
  app.get('/chanB/status', {
    schema: {
      tags: ['channels'],
      operationId: 'getChanBStatus',
      response: { 200: ChanBStatusResponse, ...errorResponses(401, 403) },
    },
    config: { auth: 'user', permission: 'canEditSettings' },
    handler: async () => status.get(),
  });
};
