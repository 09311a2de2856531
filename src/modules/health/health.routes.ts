import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type HealthService, healthHttpStatus } from './health.service.js';

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  uptimeSec: Type.Integer(),
  checks: Type.Object({
    database: Type.String({ description: 'ok, or down' }),
    queue: Type.String({ description: 'ok, or down' }),
    llm: Type.String({
      description:
        'ok (the provider answered), offline (no LLM_API_KEY: local embedder and extractive replies), ' +
        'unreachable, unauthorized (the key is refused) or error (the provider answers 5xx)',
    }),
  }),
  reason: Type.Optional(
    Type.String({ description: 'Why the status is degraded; absent when it is ok', maxLength: 1000 }),
  ),
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
      return reply.status(healthHttpStatus(result)).send(result);
    },
  });
};
