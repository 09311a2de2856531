import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/http/schemas.js';
import { AuthResponse } from '../auth/auth.schemas.js';
import { SetupBody, SetupStatus } from './setup.schemas.js';
import type { SetupService } from './setup.service.js';

const tags = ['setup'];

export const setupRoutes: FastifyPluginAsyncTypebox<{
  setup: SetupService;
  rateLimitPerMin: number;
}> = async (app, { setup, rateLimitPerMin }) => {
  app.get('/setup', {
    schema: { tags, operationId: 'getSetupStatus', response: { 200: SetupStatus } },
    config: { auth: 'none' },
    handler: async () => setup.status(),
  });

  app.post('/setup', {
    schema: {
      tags,
      operationId: 'completeSetup',
      body: SetupBody,
      response: { 201: AuthResponse, ...errorResponses(401, 409, 422, 429) },
    },
    // Limited like login: the setup code is a password of sorts.
    config: { auth: 'none', rateLimitPerMin, audit: { entityType: 'users', action: 'setup' } },
    handler: async (request, reply) => {
      const result = await setup.complete(request.body);
      request.auditUserId = result.user.id;
      // The entry names who was created; the setup code and the password stay out of it.
      request.auditChanges = { email: result.user.email, name: result.user.name, role: result.user.role };
      return reply.status(201).send(result);
    },
  });
};
