import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HealthService } from './health.service.js';

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  uptimeSec: Type.Integer(),
  checks: Type.Object({
    database: Type.String({ description: 'ok, or down' }),
    queue: Type.String({ description: 'ok, or down' }),
    llm: Type.String({ description: 'configured, or offline when no LLM_API_KEY is set' }),
  }),
});

export const healthRoutes: FastifyPluginAsyncTypebox<{
  health: HealthService;
  path: string;
  hidden?: boolean;
}> = async (app, { health, path, hidden }) => {
  app.get(path, {
    schema: {
      tags: ['system'],
      ...(hidden ? { hide: true } : { operationId: 'getHealth' }),
      response: { 200: HealthResponse, 503: HealthResponse },
    },
    config: { auth: 'none' },
    handler: async (_request, reply) => {
      const result = await health.check();
      return reply.status(result.status === 'ok' ? 200 : 503).send(result);
    },
  });
};
