import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import { AgentRun, TraceParams } from './traces.schemas.js';
import type { TracesService } from './traces.service.js';

export const tracesRoutes: FastifyPluginAsyncTypebox<{ traces: TracesService }> = async (app, { traces }) => {
  app.get('/traces/:trace_id', {
    schema: {
      tags: ['traces'],
      operationId: 'getTrace',
      params: TraceParams,
      response: { 200: AgentRun, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => traces.get(requireActor(request), request.params.trace_id),
  });
};
