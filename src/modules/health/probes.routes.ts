import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HealthService } from './health.service.js';

const LiveResponse = Type.Object({ status: Type.Literal('ok') });

const ReadyResponse = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({
    database: Type.String({ description: 'ok, or down' }),
    queue: Type.String({ description: 'ok, or down' }),
    migrations: Type.String({ description: 'ok: a process serves only once it has migrated' }),
  }),
});

/**
 * The orchestrator's probes, at the root beside /health and hidden from the
 * API docs (docs/operations.md describes them): `/health/live` answers while
 * the process does, `/health/ready` while it can do its work.
 */
export const probeRoutes: FastifyPluginAsyncTypebox<{ health: HealthService }> = async (app, { health }) => {
  app.get('/health/live', {
    schema: { tags: ['system'], hide: true, response: { 200: LiveResponse } },
    config: { auth: 'none' },
    // No dependency is checked: a restart would not bring a lost database back.
    handler: async () => ({ status: 'ok' as const }),
  });
  app.get('/health/ready', {
    schema: { tags: ['system'], hide: true, response: { 200: ReadyResponse, 503: ReadyResponse } },
    config: { auth: 'none' },
    handler: async (_request, reply) => {
      const report = await health.ready();
      return reply.status(report.status === 'ready' ? 200 : 503).send(report);
    },
  });
};
