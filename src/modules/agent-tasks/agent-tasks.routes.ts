import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses, IdParams } from '../../core/http/schemas.js';
import {
  AgentTaskDetail,
  AgentTaskPage,
  AgentTaskStats,
  AgentTaskStatsQuery,
  ListAgentTasksQuery,
} from './agent-tasks.schemas.js';
import type { AgentTasksService } from './agent-tasks.service.js';

const tags = ['agent-tasks'];

export const agentTasksRoutes: FastifyPluginAsyncTypebox<{ agentTasks: AgentTasksService }> = async (
  app,
  { agentTasks },
) => {
  app.get('/agent-tasks', {
    schema: {
      tags,
      operationId: 'listAgentTasks',
      querystring: ListAgentTasksQuery,
      response: { 200: AgentTaskPage, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => agentTasks.list(requireActor(request), request.query),
  });

  // A literal segment: the router prefers it to /agent-tasks/:id.
  app.get('/agent-tasks/stats', {
    schema: {
      tags,
      operationId: 'getAgentTaskStats',
      querystring: AgentTaskStatsQuery,
      response: { 200: AgentTaskStats, ...errorResponses(401, 403, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => agentTasks.stats(requireActor(request), request.query),
  });

  app.get('/agent-tasks/:id', {
    schema: {
      tags,
      operationId: 'getAgentTask',
      params: IdParams,
      response: { 200: AgentTaskDetail, ...errorResponses(401, 404, 422) },
    },
    config: { auth: 'user' },
    handler: async (request) => agentTasks.get(requireActor(request), request.params.id),
  });
};
